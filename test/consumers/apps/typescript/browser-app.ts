// A browser app's use of troupe, type-checked with `moduleResolution: bundler` and the DOM library.
import { createAnthropicModel } from '@troupe/anthropic';
import { createFetchTool, createIndexedDbStore, createOpfsTools, openOpfsWorkspace } from '@troupe/browser';
import { createRuntime, parseAgentFile, type Session } from '@troupe/core';

export async function page(apiKey: string): Promise<Session> {
  const store = createIndexedDbStore({ name: 'consumer' });
  await store.claim();
  const workspace = await openOpfsWorkspace('consumer/workspace');
  const runtime = createRuntime({
    model: createAnthropicModel({ apiKey, dangerouslyAllowBrowser: true, env: {} }),
    agents: [parseAgentFile('---\nname: a\ndescription: b\n---\nc', { path: 'a.md' }).definition],
    tools: [...createOpfsTools(workspace), createFetchTool({ allowedOrigins: ['https://example.com'] })],
    store,
  });
  const button: HTMLButtonElement = document.createElement('button');
  button.onclick = () => runtime.cancelSession('s');
  return runtime.createSession({ sessionKey: 's' });
}
