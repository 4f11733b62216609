import { formatTokens, type StoredTask } from '@troupe/core';
import { createFileStore } from '@troupe/node';
import type { Colors } from '../render/colors.js';
import { storedTaskRow } from '../render/stored-task.js';
import { taskTable } from '../render/task-table.js';

/**
 * The end of the demo: the sub-agents' tasks as a fresh store reads them back from disk (agent,
 * description, status, tools, time, tokens), where they are, and how to run troupe for real.
 */
export async function demoSummary(
  dir: string,
  colors: Colors,
): Promise<{ lines: string[]; tasks: StoredTask[] }> {
  const store = createFileStore({ dir });
  const { tasks: stored } = await store.loadTasks();
  await store.close();
  // The store also keeps the main agent's runs (depth 0) for the cost ledger: the demo's tasks are its sub-agents'.
  const tasks = stored.filter((task) => task.spec.depth > 0);
  tasks.sort((a, b) => a.spec.createdAt - b.spec.createdAt);
  // An unfinished task's time is how long ago it was created: measured from now, for every row.
  const now = Date.now();
  const rows = tasks.map((task) => storedTaskRow(task, now));
  const tokens = rows.reduce((sum, row) => sum + row.tokens, 0);
  const tools = rows.reduce((sum, row) => sum + row.toolCalls, 0);
  const first = tasks[0]?.spec.taskId ?? 'ID';
  // After `pnpm demo` in a checkout, `troupe` is not on PATH yet: say how to put it there.
  const fromCheckout = process.env.npm_lifecycle_event === 'demo' && process.argv[1] !== undefined;
  const alias = fromCheckout
    ? [`  alias troupe="node ${process.argv[1]}"   # put the command on your PATH`]
    : [];
  const lines = [
    colors.bold('Tasks, as persisted:'),
    ...taskTable(rows, colors),
    colors.dim(
      `${rows.length} tasks, ${tools} tool calls, ${formatTokens(tokens)} tokens (estimated by the scripted model).`,
    ),
    '',
    `The tasks were persisted in ${dir}`,
    ...alias,
    `  troupe tasks list --store ${dir}`,
    `  troupe tasks show ${first} --store ${dir}`,
    '',
    colors.bold('Run troupe for real:'),
    '  export ANTHROPIC_API_KEY=sk-ant-...   # your key from console.anthropic.com',
    '  troupe                                # in your project: a session with the main agent',
    '  troupe run "Where is auth handled?"   # one prompt, headless',
  ];
  return { lines, tasks };
}
