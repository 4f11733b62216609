// A troupe process for the worktree crash test. Phase `run` spawns one task of an agent with
// `isolation: worktree`; it writes notes.txt in its worktree, then its next model call never
// answers (the test kills the process there: MARK written). Phase `restore` brings the task back:
// its model call is issued again, it runs `pwd; cat notes.txt` and answers with what it saw.
//   node --conditions=source --import tsx worktree-child.ts <phase> <repo> <worktrees> <storeDir>
import { createRuntime, FINAL_TASK_EVENTS, type ModelRequest } from '@troupe/core';
import { scriptedModel, textReply, toolReply } from '@troupe/core/testing';
import { createFileStore, createNodeTools, createWorktreeWorkspaces } from '@troupe/node';

const [phase, repo, worktrees, dir] = process.argv.slice(2) as ['run' | 'restore', string, string, string];
const store = createFileStore({ dir, snapshotDelayMs: 0 });
const mark = (name: string) => process.stdout.write(`MARK ${name}\n`);
const turnOf = (request: ModelRequest) =>
  request.messages.filter((message) => message.role === 'assistant').length + 1;

const model = scriptedModel(async (request) => {
  const turn = turnOf(request);
  if (turn === 1)
    return toolReply('write', { file_path: 'notes.txt', content: 'written before the crash\n' });
  if (turn === 2 && phase === 'run') {
    await store.flush();
    mark('wrote');
    return new Promise<never>(() => {});
  }
  if (turn === 2) return toolReply('bash', { command: 'pwd; cat notes.txt' });
  return textReply(JSON.stringify(request.messages.at(-1)!.content));
});

const runtime = createRuntime({
  model,
  store,
  agents: [
    { name: 'isolated', description: 'Works alone.', systemPrompt: 'You work.', isolation: 'worktree' },
  ],
  tools: createNodeTools({ root: repo }),
  workspaces: createWorktreeWorkspaces({ root: repo, dir: worktrees }),
  approval: 'auto',
});

if (phase === 'run') {
  const { id } = runtime.spawn({ agent: 'isolated', prompt: 'write notes' });
  mark(`spawned ${id}`);
  await new Promise<never>(() => {});
} else {
  const { restored } = await runtime.restore();
  const [id] = restored;
  const result = await new Promise((resolve) => {
    for (const name of FINAL_TASK_EVENTS)
      runtime.on(name, (event) => event.taskId === id && resolve(event.result));
  });
  await runtime.shutdown();
  process.stdout.write(`RESULT ${JSON.stringify({ restored, result })}\n`);
}
