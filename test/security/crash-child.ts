// A troupe process under attack, for the crash tests: it runs one task whose model, tool or host
// callback misbehaves as named, with the file store, and prints `RESULT <json>` once the task has
// ended and its journal has been replayed. If the attack takes the process down, there is no
// RESULT line and the exit code is not 0. Usage:
//   node --conditions=source --import tsx crash-child.ts <attack> <storeDir>
import {
  type ApprovalPolicy,
  createRuntime,
  defineTool,
  type ModelAdapter,
  type ModelResponse,
  replayTask,
} from '@troupe/core';
import { createFileStore } from '@troupe/node';
import * as v from 'valibot';
import { echoTool, touchTool } from './stand-in-tools.js';

const [attack, dir] = process.argv.slice(2) as [string, string];
const store = createFileStore({ dir, snapshotDelayMs: 0 });

/** An object nested `depth` levels deep, built without recursion. */
function nested(depth: number): Record<string, unknown> {
  let value: Record<string, unknown> = { leaf: true };
  for (let level = 0; level < depth; level++) value = { a: value };
  return value;
}

const done: ModelResponse = { content: [{ type: 'text', text: 'done' }], usage: { input: 1, output: 1 } };
const call = (id: string, name: string, input: unknown) => ({ type: 'tool_use' as const, id, name, input });

/** The first response of each attack; every later call answers `done`. */
const first: Record<string, () => unknown> = {
  'deep-tool-input': () => ({
    content: [call('toolu_1', 'echo', nested(6_000))],
    usage: { input: 1, output: 1 },
  }),
  'response-without-usage': () => ({ content: [{ type: 'text', text: 'hi' }] }),
  'response-content-null': () => ({ content: null, usage: { input: 1, output: 1 } }),
  'response-undefined': () => undefined,
  'policy-returns-undefined': () => ({
    content: [call('toolu_1', 'touch', { name: 'x' })],
    usage: { input: 1, output: 1 },
  }),
  'huge-tool-results': () => ({
    content: Array.from({ length: 12 }, (_, index) => call(`toolu_${index}`, 'big', {})),
    usage: { input: 1, output: 1 },
  }),
};
if (!first[attack]) throw new Error(`unknown attack ${attack}`);

let calls = 0;
const model: ModelAdapter = {
  async generate() {
    calls++;
    return (calls === 1 ? first[attack]!() : done) as ModelResponse;
  },
};

const tools = [
  echoTool,
  touchTool,
  defineTool({
    name: 'big',
    description: 'Returns 50 MB.',
    access: 'read',
    input: v.object({}),
    execute: () => 'x'.repeat(50 * 1024 * 1024),
  }),
];

const approval: ApprovalPolicy =
  attack === 'policy-returns-undefined' ? ((() => undefined) as never) : 'auto';
const runtime = createRuntime({
  model,
  tools,
  agents: [{ name: 'victim', description: 'Runs the attack.', systemPrompt: 'Be attacked.', tools: ['*'] }],
  approval,
  store,
  limits: { timeoutMs: 60_000 },
});
const warnings: string[] = [];
runtime.on('runtime.warning', (warning) => warnings.push(warning.code));
const handle = runtime.spawn({ agent: 'victim', prompt: 'go', description: 'attack' });
const result = await handle.result;
await store.flush();
const replay = await replayTask(store, handle.id);
const deniedNote = JSON.stringify(replay.snapshot.context.messages).includes('denied');
process.stdout.write(
  `RESULT ${JSON.stringify({
    status: result.status,
    terminateReason: result.terminateReason,
    error: result.error?.message,
    output: String(result.output).slice(0, 200),
    replayMatches: replay.matches,
    denied: deniedNote,
    warnings,
    journalChars: JSON.stringify((await store.loadJournal(handle.id)).entries).length,
  })}\n`,
);
await runtime.shutdown();
