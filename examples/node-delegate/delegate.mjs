import { homedir } from 'node:os';
import { createRuntime } from '@troupe/core';
import { createAnthropicModel } from '@troupe/anthropic';
import { createFileStore, createNodeTools, loadAgentDirectories } from '@troupe/node';

const agents = await loadAgentDirectories({ cwd: process.cwd(), home: homedir() });  // project, user, built-in
const runtime = createRuntime({
  model: createAnthropicModel(),                       // ANTHROPIC_API_KEY
  agents,
  tools: createNodeTools({ root: process.cwd() }),
  store: createFileStore(),                            // ~/.troupe/tasks
  approval: 'ask',
});
runtime.on('approval.requested', (request) => runtime.approve(request.id));
runtime.on('tool.finished', (e) => console.log(`[${e.agent}] ${e.description} ... ${e.toolCalls} tools`));

const { id, result } = runtime.spawn({ agent: 'explore', prompt: 'Find where auth is handled', sessionKey: 's1' });
console.log((await result).output);                    // never rejects: read result.status

const session = runtime.createSession({ sessionKey: 's1' });   // a main agent that delegates
console.log((await session.send('Where is auth handled?')).text);
await runtime.restore();                               // after a crash: bring unfinished tasks back
await runtime.shutdown();
