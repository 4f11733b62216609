// The local fake of the Messages API every consumer app talks to, and how it answers: a main
// agent delegates to the sub-agent the message asks for; each sub-agent uses its tools, then
// answers with what they gave it.

import type { FakeAnthropicServer, FakeHandler, RecordedRequest } from '../fake-anthropic/index.js';
import {
  isMainAgent,
  lastUserText,
  startFakeAnthropic,
  textStep,
  toolNamesOf,
  toolResultsOf,
  toolStep,
} from '../fake-anthropic/index.js';

/** The key the fake accepts (and the apps are given). */
export const FAKE_KEY = 'sk-ant-consumer-test';

/** What explore found (a line of the project's src/auth.js). */
export const AUTH_LINE = 'export function checkAuth(token)';

/** The note the notes agent of the browser example keeps. */
export const NOTE = 'The demo works.';

function turnsSoFar(request: RecordedRequest): number {
  const messages: { role?: string }[] = Array.isArray(request.body?.messages) ? request.body.messages : [];
  return messages.filter((message) => message.role === 'assistant').length;
}

const lastResult = (request: RecordedRequest) => toolResultsOf(request).at(-1)?.content ?? '';

/** Answers by the request's tools (which agent asks) and by how many turns it has had. */
export const consumerHandler: FakeHandler = (request) => {
  const tools = toolNamesOf(request);
  const turn = turnsSoFar(request);
  if (isMainAgent(request)) {
    // A main agent: delegate once, then reply with what the sub-agent said.
    if (turn > 0) return textStep(`The sub-agent reported: ${lastResult(request)}`);
    const text = lastUserText(request);
    const agent = /write/i.test(text) ? 'general-purpose' : /note/i.test(text) ? 'notes' : 'explore';
    return toolStep('task', { description: `Ask ${agent}`, prompt: text, subagent_type: agent });
  }
  if (tools.includes('bash')) {
    // general-purpose (the chat example): write a file (which asks for approval), then answer.
    if (turn === 0)
      return toolStep('write', { file_path: 'chat-note.txt', content: 'written from the chat page\n' });
    return textStep(`Wrote chat-note.txt: ${lastResult(request)}`);
  }
  if (tools.includes('write')) {
    // notes (the browser example): write the note, read it back, answer with it.
    if (turn === 0) return toolStep('write', { file_path: 'notes.md', content: `# Notes\n\n${NOTE}\n` });
    if (turn === 1) return toolStep('read', { file_path: 'notes.md' });
    return textStep(`notes.md says: ${lastResult(request)}`);
  }
  // explore (read-only): search, then answer with the match.
  if (turn === 0) return toolStep('grep', { pattern: 'checkAuth', output_mode: 'content' });
  return textStep(`Auth is handled here: ${lastResult(request)}`);
};

/** Starts the fake on a free port: strict (an invalid request fails `close()`), CORS for pages. */
export function startConsumerFake(): Promise<FakeAnthropicServer> {
  return startFakeAnthropic({ handler: consumerHandler, apiKey: FAKE_KEY, cors: '*', strict: true });
}
