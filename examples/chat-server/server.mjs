// A chat server on Node's http module: one troupe session, whose main agent delegates to
// sub-agents working on WORKSPACE (default: the current folder). The page (public/index.html)
// posts messages and approval answers; every runtime event and every reply reaches it over
// server-sent events (GET /events).
//
//   PORT=3000 WORKSPACE=/path/to/project ANTHROPIC_API_KEY=sk-ant-... node server.mjs
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { homedir } from 'node:os';
import { createAnthropicModel } from '@troupe/anthropic';
import { createRuntime, TASK_EVENT_NAMES } from '@troupe/core';
import { createFileStore, createNodeTools, loadAgentDirectories } from '@troupe/node';

const workspace = process.env.WORKSPACE ?? process.cwd();
const page = await readFile(new URL('./public/index.html', import.meta.url));

const runtime = createRuntime({
  model: createAnthropicModel(), // ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL
  agents: await loadAgentDirectories({ cwd: workspace, home: homedir() }),
  tools: createNodeTools({ root: workspace }),
  store: createFileStore(), // ~/.troupe/tasks
  approval: 'ask', // write and execute tools wait for the page's answer
});
await runtime.restore(); // tasks a crash interrupted go on
const session = runtime.createSession({ sessionKey: 'chat' });

/** The open event streams. */
const clients = new Set();

/** Sends one server-sent event to every open page. */
function broadcast(event, data) {
  const frame = `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
  for (const client of clients) client.write(frame);
}

for (const name of TASK_EVENT_NAMES) runtime.on(name, (event) => broadcast(name, event));
session.on('message', (message) => broadcast('message', { kind: message.kind, text: message.text }));

/** Reads a small JSON request body. */
async function body(request) {
  let text = '';
  for await (const chunk of request) {
    text += chunk;
    if (text.length > 100_000) throw new Error('request body over 100 KB');
  }
  return JSON.parse(text || '{}');
}

function answer(response, status, data) {
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(data));
}

const server = createServer(async (request, response) => {
  const url = new URL(request.url ?? '/', 'http://localhost');
  try {
    if (request.method === 'GET' && url.pathname === '/') {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
    } else if (request.method === 'GET' && url.pathname === '/events') {
      response.writeHead(200, {
        'content-type': 'text/event-stream',
        'cache-control': 'no-cache',
        connection: 'keep-alive',
      });
      response.write(': connected\n\n');
      clients.add(response);
      request.on('close', () => clients.delete(response));
      // A page opened (or reloaded) while an approval waits still gets to answer it.
      for (const pending of runtime.pendingApprovals()) {
        response.write(`event: approval.requested\ndata: ${JSON.stringify(pending)}\n\n`);
      }
    } else if (request.method === 'POST' && url.pathname === '/messages') {
      const { text } = await body(request);
      if (typeof text !== 'string' || text.trim() === '')
        return answer(response, 400, { error: 'text is empty' });
      answer(response, 202, { accepted: true });
      // Replies arrive as `message` events; a failed turn is a reply too (never a rejection).
      session.send(text).catch((error) => broadcast('error', { message: String(error?.message ?? error) }));
    } else if (request.method === 'POST' && url.pathname.startsWith('/approvals/')) {
      const id = decodeURIComponent(url.pathname.slice('/approvals/'.length));
      const { decision, always } = await body(request);
      if (decision === 'approve') runtime.approve(id, { always: always === true });
      else runtime.deny(id, 'Denied in the chat page.');
      answer(response, 200, { ok: true });
    } else {
      answer(response, 404, { error: `no ${request.method} ${url.pathname}` });
    }
  } catch (error) {
    if (!response.headersSent) answer(response, 400, { error: String(error?.message ?? error) });
  }
});

server.listen(Number(process.env.PORT ?? 3000), '127.0.0.1', () => {
  console.log(`Chat on http://127.0.0.1:${server.address().port} (workspace ${workspace})`);
});

async function stop() {
  for (const client of clients) client.end();
  server.close();
  await runtime.shutdown();
  process.exit(0);
}
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
