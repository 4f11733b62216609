// troupe in a page, without a server: the main agent delegates to a notes agent whose tools work
// on an OPFS folder; every task is stored in IndexedDB, so a reload resumes what was running.
import { createAnthropicModel } from '@troupe/anthropic';
import { createIndexedDbStore, createOpfsTools, openOpfsWorkspace } from '@troupe/browser';
import { createRuntime, type Runtime, type Session } from '@troupe/core';
import { agents } from './agents.js';

const $ = <T extends HTMLElement>(selector: string) => document.querySelector(selector) as T;
const log = (text: string) => $('#log').append(`${text}\n`);

const workspace = await openOpfsWorkspace('troupe-example/workspace'); // created if absent
const store = createIndexedDbStore({ name: 'troupe-example' }); // database troupe-tasks:troupe-example
await store.claim(); // one writer tab at a time (a second tab waits here)

let session: Session | undefined;

/** The runtime, made once the page has a key (the model needs it). */
async function start(apiKey: string, baseURL: string): Promise<Session> {
  const runtime: Runtime = createRuntime({
    // dangerouslyAllowBrowser: the key is the user's own and stays in this page.
    model: createAnthropicModel({ apiKey, baseURL, dangerouslyAllowBrowser: true, env: {} }),
    agents,
    tools: createOpfsTools(workspace),
    store,
    approval: 'ask', // write and edit wait for the user
  });
  runtime.on('approval.requested', (request) => {
    const allowed = confirm(
      `${request.agent} wants to ${request.tool}:\n${JSON.stringify(request.input, null, 2)}`,
    );
    if (allowed) runtime.approve(request.id);
    else runtime.deny(request.id, 'The user said no.');
  });
  runtime.on('task.started', (e) => log(`[${e.agent}] ${e.description} started`));
  runtime.on('tool.finished', (e) => log(`[${e.agent}] ${e.description}: ${e.toolCalls} tool calls`));
  runtime.on('task.completed', (e) => log(`[${e.agent}] ${e.description} completed`));
  runtime.on('task.failed', (e) => log(`[${e.agent}] ${e.description} failed: ${e.result.error?.message}`));
  await runtime.restore(); // tasks a reload interrupted go on
  return runtime.createSession();
}

async function showFiles(): Promise<void> {
  const list = $('#files');
  list.replaceChildren();
  // The workspace's top level, through the OPFS folder handle itself.
  for await (const [name, handle] of workspace.root.entries()) {
    const item = document.createElement('li');
    item.textContent = handle.kind === 'directory' ? `${name}/` : name;
    list.append(item);
  }
}

$('#ask').addEventListener('submit', async (event) => {
  event.preventDefault();
  const key = $<HTMLInputElement>('#key').value.trim();
  session ??= await start(key, $<HTMLInputElement>('#base-url').value.trim());
  $('#answer').textContent = '…';
  const reply = await session.send($<HTMLTextAreaElement>('#prompt').value);
  $('#answer').textContent =
    reply.result.status === 'completed' ? reply.text : `(${reply.result.status}) ${reply.text}`;
  $('#answer').dataset.status = reply.result.status;
  await showFiles();
});
await showFiles();
