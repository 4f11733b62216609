import type { TaskSpec } from '@troupe/core';
import { queuedRecord } from '@troupe/core/store';
import { createFileStore } from '@troupe/node';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { parseCommandLine } from '../src/arguments.js';
import { unfinishedTasks } from '../src/commands/task-lookup.js';
import { tasksCommand } from '../src/commands/tasks.js';
import type { CliContext } from '../src/io.js';
import { tempDir } from './helpers/cli.js';
import { capturedIo, completedRecord, storedSpec } from './helpers/stored-tasks.js';

// `troupe tasks show|cancel|resume` read only what they need from a store of 1,200 tasks (more
// than one page of its index): a full id is one getTask, a prefix is matched against the index's
// ids, `resume` without an id lists the unfinished tasks by status. Every read the commands ask
// of the store is counted (the store the CLI opens is wrapped).
const counts = vi.hoisted(() => ({ calls: {} as Record<string, number> }));

vi.mock('../src/setup/task-store.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../src/setup/task-store.js')>();
  const { countingCalls } = await import('./helpers/stored-tasks.js');
  return { ...real, openStore: (dir: string) => countingCalls(real.openStore(dir), () => counts.calls) };
});

const TASKS = 1_200;
/** Tasks 7 and 1,150 never ended; the others completed. */
const UNFINISHED = [7, 1_150];
let dir: string;
let home: string;

function idOf(index: number): string {
  return `t_${String(index).padStart(4, '0')}_k${index % 10}`;
}

function spec(index: number): TaskSpec {
  return storedSpec(idOf(index), { description: `task ${index}`, createdAt: 1_000 + index });
}

beforeAll(async () => {
  dir = tempDir('lookup-store');
  home = tempDir('lookup-home');
  const store = createFileStore({ dir });
  for (let index = 0; index < TASKS; index++) {
    const task = spec(index);
    store.appendStatus(queuedRecord(task));
    if (!UNFINISHED.includes(index))
      store.appendStatus(completedRecord(task, task.createdAt + 50, { output: `answer ${index}` }));
  }
  await store.close();
}, 60_000);

beforeEach(() => {
  counts.calls = {};
});

/** Runs `troupe tasks ARGS --store DIR` in this process; what it returned or threw, and wrote. */
async function tasks(...args: string[]): Promise<{ code?: number; error?: Error; stdout: string }> {
  const { io, output } = capturedIo({ env: {}, cwd: home, home, script: 'troupe' });
  const context: CliContext = { ...io, line: parseCommandLine(['tasks', ...args, '--store', dir]) };
  try {
    return { code: await tasksCommand(context), stdout: output().stdout };
  } catch (error) {
    return { error: error as Error, stdout: output().stdout };
  }
}

describe('troupe tasks show|cancel|resume over a store of more than a page', () => {
  it('shows a task by its full id with one getTask, by a prefix from the index’s ids, never loading every task', async () => {
    const full = await tasks('show', idOf(1_100));
    expect(full.code).toBe(0);
    expect(full.stdout).toContain(`[explore] task 1100  ${idOf(1_100)}`);
    expect(full.stdout).toContain('status:   completed (GOAL)');
    expect(counts.calls).toMatchObject({ getTask: 1 });
    expect(counts.calls.listTasks ?? 0).toBe(0);
    expect(counts.calls.loadTasks ?? 0).toBe(0);

    counts.calls = {};
    // The oldest task: a prefix found on the index's last page.
    const prefix = await tasks('show', 't_0003');
    expect(prefix.code).toBe(0);
    expect(prefix.stdout).toContain(`[explore] task 3  ${idOf(3)}`);
    expect(counts.calls.listTasks).toBe(2);
    expect(counts.calls.getTask).toBe(2);
    expect(counts.calls.loadTasks ?? 0).toBe(0);
  });

  it('keeps the unknown and ambiguous messages, an ambiguity found across pages', async () => {
    // The first page holds tasks 200…1,199, the second 0…199: `t_0` matches ids on both.
    const ambiguous = await tasks('show', 't_0');
    expect(ambiguous.error?.message).toBe(
      '"t_0" matches 1000 tasks (t_0999_k9, t_0998_k8, t_0997_k7, t_0996_k6, t_0995_k5, …): give more of the id.',
    );
    const unknown = await tasks('cancel', 't_9');
    expect(unknown.error?.message).toBe('No task with id "t_9".');
    const ended = await tasks('resume', 't_0042');
    expect(ended.error?.message).toBe(`Task ${idOf(42)} already ended (completed).`);
    expect(counts.calls.loadTasks ?? 0).toBe(0);
  });

  it('resume without an id reads the unfinished tasks by status; cancel by prefix', async () => {
    const { openStore } = await import('../src/setup/task-store.js');
    const store = openStore(dir);
    counts.calls = {};
    expect((await unfinishedTasks(store)).map((task) => task.spec.taskId)).toEqual([idOf(1_150), idOf(7)]);
    expect(counts.calls).toMatchObject({ listTasks: 1, getTask: 2 });
    await store.close();

    counts.calls = {};
    for (const given of ['t_1150', 't_0007']) {
      const cancelled = await tasks('cancel', given);
      expect(cancelled.code).toBe(0);
      expect(cancelled.stdout).toContain(`Cancelled task ${idOf(Number(given.slice(2)))}`);
    }
    const nothing = await tasks('resume');
    expect(nothing.code).toBe(0);
    expect(nothing.stdout).toBe(`No unfinished tasks to resume in ${dir}.\n`);
    expect(counts.calls.loadTasks ?? 0).toBe(0);
  });
});
