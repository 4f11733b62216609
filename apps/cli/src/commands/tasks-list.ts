// `troupe tasks list`: the newest page of the store's history, read from its paged index
// (`TaskStore.listTasks`), so listing 50 tasks of a store of 100,000 reads 50 summaries, not every
// stored task (and a team's row reads that team and its spells only).
import {
  readTeam,
  type StoredTask,
  type StoredTeam,
  type TaskQuery,
  type TaskStatus,
  type TaskStore,
  type TaskSummary,
  TroupeError,
} from '@troupe/core';
import { MAX_PAGE_SIZE } from '@troupe/core/store';
import { EXIT } from '../exit-codes.js';
import type { CliContext } from '../io.js';
import { colorsFor } from '../render/colors.js';
import { summaryRow } from '../render/stored-task.js';
import { type TaskRow, taskTable } from '../render/task-table.js';
import { summaries } from './task-lookup.js';
import { teamRow } from './team-show.js';

/** The agent a team's own task is stored under (core's `TEAM_AGENT`). */
const TEAM_AGENT = 'team';

/** What `troupe tasks list` shows: at most `limit` tasks (default 50), of one status if given. */
export interface ListOptions {
  limit?: number | undefined;
  status?: TaskStatus | undefined;
  json?: boolean | undefined;
}

/**
 * Writes the newest tasks of `store` as a table (or JSON rows): delegated tasks (depth ≥ 1) and
 * teams, each team as one row with its members' work summed. A session's main-agent runs (stored
 * as tasks of depth 0 for the usage ledger) are not listed. `where` names the store in "No tasks".
 */
export async function listStoredTasks(
  context: CliContext,
  store: TaskStore,
  where: string,
  options: ListOptions,
): Promise<number> {
  const { status } = options;
  const limit = options.limit ?? 50;
  const teams = new Map<string, { team: StoredTeam | undefined; spells: (StoredTask | undefined)[] }>();
  // One newest-first walk of the index: a team's own task is of depth 0 too, read to tell it is a team.
  const tasks = await newest(store, status ? { status } : {}, limit, async (summary) => {
    if (summary.depth > 0) return true;
    if (summary.agent !== TEAM_AGENT) return false;
    const read = await readTeamOf(context, store, summary.taskId);
    if (read) teams.set(summary.taskId, read);
    return read !== undefined;
  });
  const rows = tasks.map((summary): TaskRow => {
    const row = summaryRow(summary);
    const team = teams.get(summary.taskId);
    if (!team) return row;
    // A team whose journal could not be read: its own row, without its members' work.
    return team.team ? teamRow(row, team.team.task.spec, team.spells) : { ...row, agent: TEAM_AGENT };
  });
  if (options.json) {
    context.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
    return EXIT.ok;
  }
  if (rows.length === 0) {
    context.stdout.write(`No tasks${status ? ` with status ${status}` : ''} in ${where}.\n`);
    return EXIT.ok;
  }
  context.stdout.write(`${taskTable(rows, colorsFor(context.stdout, context.env)).join('\n')}\n`);
  return EXIT.ok;
}

/**
 * The newest `count` summaries of `query` that `keep` keeps, newest first, read from the store's
 * index a page at a time (at least 100 summaries a page, so skipped ones cost few reads), until
 * `count` are kept or the index ends.
 */
async function newest(
  store: TaskStore,
  query: TaskQuery,
  count: number,
  keep: (summary: TaskSummary) => boolean | Promise<boolean>,
): Promise<TaskSummary[]> {
  const kept: TaskSummary[] = [];
  const pageSize = () => Math.min(Math.max(count - kept.length, 100), MAX_PAGE_SIZE);
  if (count <= 0) return kept;
  for await (const summary of summaries(store, query, pageSize)) {
    // Stop as the last one is kept: the walk reads no page beyond it.
    if ((await keep(summary)) && kept.push(summary) === count) break;
  }
  return kept;
}

/**
 * A stored team and its spells (their results make its row), or undefined when `taskId` is no
 * team. A team whose journal cannot be read is listed with a warning, without its spells' work.
 */
async function readTeamOf(
  context: CliContext,
  store: TaskStore,
  taskId: string,
): Promise<{ team: StoredTeam | undefined; spells: (StoredTask | undefined)[] } | undefined> {
  try {
    const team = await readTeam(store, taskId);
    const spells = team.events.flatMap((event) =>
      event.type === 'team.spell.started' ? [event.taskId] : [],
    );
    return { team, spells: await Promise.all(spells.map((id) => store.getTask(id))) };
  } catch (error) {
    if (TroupeError.isInstance(error) && error.code === 'TASK_NOT_FOUND') return undefined;
    context.stderr.write(`troupe: warning: team ${taskId}: ${(error as Error).message}\n`);
    return { team: undefined, spells: [] };
  }
}
