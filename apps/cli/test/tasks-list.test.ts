import {
  createMemoryStore,
  createRuntime,
  type StoredTask,
  type TaskSpec,
  type TaskStore,
} from '@troupe/core';
import { newestFirst, queuedRecord, summaryOf } from '@troupe/core/store';
import { reportTeamCast, reportTeamJob } from '@troupe/core/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseCommandLine } from '../src/arguments.js';
import { type ListOptions, listStoredTasks } from '../src/commands/tasks-list.js';
import { isTeam, teamRow } from '../src/commands/team-show.js';
import type { CliContext } from '../src/io.js';
import { colorsFor } from '../src/render/colors.js';
import { storedTaskRow } from '../src/render/stored-task.js';
import { type TaskRow, taskTable } from '../src/render/task-table.js';
import { capturedIo, completedRecord, countingCalls, storedSpec } from './helpers/stored-tasks.js';

// `troupe tasks list` reads the newest page from the store's paged index: a store of 3,000 tasks
// (a third of them a session's main-agent runs, not listed) and one agent team, whose reads are counted.
const FILLERS = 3_000;
let store: TaskStore;
let teamId: string;
let all: StoredTask[];

function fillerSpec(index: number): TaskSpec {
  return storedSpec(`t_${String(index).padStart(5, '0')}`, {
    description: `task ${index}`,
    depth: index % 3 === 0 ? 0 : 1,
    createdAt: 1_000 + index,
  });
}

beforeAll(async () => {
  store = createMemoryStore();
  for (let index = 0; index < FILLERS; index++) {
    const spec = fillerSpec(index);
    store.appendStatus(queuedRecord(spec));
    if (index % 4 === 0) store.appendStatus(completedRecord(spec, spec.createdAt + 50, { toolCalls: 2 }));
  }
  // The team runs after the fillers were created (a later clock): its task and spells are the newest.
  const runtime = createRuntime({
    ...reportTeamCast(),
    store,
    approval: 'auto',
  });
  const team = await runtime.createTeam(reportTeamJob.options);
  teamId = team.id;
  await team.result;
  await runtime.shutdown({ keepTasks: true });
  await store.flush();
  all = (await store.loadTasks()).tasks;
}, 60_000);

/** The store, with every read it is asked for counted by name. */
function counted(): { store: TaskStore; calls: Record<string, number> } {
  const calls: Record<string, number> = {};
  return { store: countingCalls(store, () => calls), calls };
}

/** Runs the list over `over` and returns what it wrote. */
async function list(
  over: TaskStore,
  options: ListOptions,
): Promise<{ code: number; stdout: string; stderr: string }> {
  const { io, output } = capturedIo({ env: {}, cwd: '/', home: '/', script: 'troupe' });
  const context: CliContext = { ...io, line: parseCommandLine(['tasks', 'list']) };
  const code = await listStoredTasks(context, over, 'the store', options);
  return { code, ...output() };
}

/** The ids the old listing showed: every stored task loaded, main-agent runs left out, newest first. */
function expectedIds(limit: number, keep: (task: StoredTask) => boolean = () => true): string[] {
  return all
    .filter((task) => (task.spec.depth > 0 || isTeam(task.spec)) && keep(task))
    .map(summaryOf)
    .sort(newestFirst)
    .slice(0, limit)
    .map((summary) => summary.taskId);
}

describe('troupe tasks list over a large store', () => {
  it('lists the newest page from the paged index, never loading every task: the team one row, its members’ work summed', async () => {
    const { store: over, calls } = counted();
    const { code, stdout } = await list(over, { limit: 12, json: true });
    expect(code).toBe(0);
    const rows = JSON.parse(stdout) as TaskRow[];
    expect(rows.map((row) => row.id)).toEqual(expectedIds(12));
    const spells = all.filter((task) => task.spec.team?.teamId === teamId && task.spec.team.member);
    expect(rows.find((row) => row.id === teamId)).toMatchObject({
      agent: 'team',
      description: 'report: lead, alice, bob, carol',
      status: 'completed',
      toolCalls: spells.reduce((sum, spell) => sum + (spell.result?.toolCalls ?? 0), 0),
      tokens: spells.reduce((sum, spell) => sum + (spell.result?.usage.total ?? 0), 0),
    });
    // One page of summaries, the team and its spells: nothing else read.
    expect(calls.loadTasks ?? 0).toBe(0);
    expect(calls.listTasks).toBe(1);
    expect(calls.getTask).toBe(1 + spells.length);
    expect(calls.loadJournal).toBe(1);
    expect(calls.loadSnapshot ?? 0).toBe(0);
  });

  it('filters by status, pages past the largest page for a large limit, and says when nothing matches', async () => {
    const completed = await list(store, { status: 'completed', limit: 5, json: true });
    expect((JSON.parse(completed.stdout) as TaskRow[]).map((row) => row.id)).toEqual(
      expectedIds(5, (task) => task.status === 'completed'),
    );
    const { store: over, calls } = counted();
    const many = await list(over, { limit: 1_500, json: true });
    expect((JSON.parse(many.stdout) as TaskRow[]).map((row) => row.id)).toEqual(expectedIds(1_500));
    expect(calls.loadTasks ?? 0).toBe(0);
    const none = await list(store, { status: 'cancelled' });
    expect(none.stdout).toBe('No tasks with status cancelled in the store.\n');
  });

  it('prints the table the CLI always printed: the rows of every loaded task, as before', async () => {
    const limit = expectedIds(FILLERS).indexOf(teamId) + 2;
    const { stdout } = await list(store, { limit });
    const byId = new Map(all.map((task) => [task.spec.taskId, task]));
    const rows = expectedIds(limit).map((id) => {
      const task = byId.get(id)!;
      const row = storedTaskRow(task);
      if (!isTeam(task.spec)) return row;
      const spells = all.filter((one) => one.spec.team?.teamId === id && one.spec.team.member);
      return teamRow(row, task.spec, spells);
    });
    expect(stdout).toBe(`${taskTable(rows, colorsFor({ isTTY: false }, {})).join('\n')}\n`);
    expect(stdout).toMatch(new RegExp(`${teamId}\\s+team\\s+report: lead, alice, bob, carol\\s+completed`));
  });
});
