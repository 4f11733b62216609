import type { ServerResponse } from 'node:http';
import type { TaskStore } from '@troupe/core';
import { isTeamTask } from '@troupe/core/internal';
import type { RelayReplay, RelayStoreError, RelayTaskList } from '../relay/store-protocol.js';
import { replayTeamTimeline } from '../replay/replay-team-timeline.js';
import { replayTimeline } from '../replay/replay-timeline.js';
import { formatTimeline } from '../timeline/timeline-jsonl.js';

/** A task store the relay lets the inspector page open (`troupe … --inspect` passes the CLI's). */
export interface RelayStore {
  store: TaskStore;
  /** The store in words (its folder), shown in the page and in messages. */
  name: string;
  /** Exact secret values to redact from replays (see `createRedactor`). */
  secrets?: readonly (string | undefined)[];
}

/** How many of the newest tasks `/store/tasks` lists. */
const LISTED = 200;

function json(response: ServerResponse, status: number, body: RelayTaskList | RelayReplay | RelayStoreError) {
  response.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-cache',
  });
  response.end(JSON.stringify(body));
}

async function replay(source: RelayStore, taskId: string): Promise<[number, RelayReplay | RelayStoreError]> {
  const { store, name } = source;
  const task = await store.getTask(taskId);
  if (!task) return [404, { error: `No task "${taskId}" in the store ${name}.` }];
  if (isTeamTask(task.spec)) return replayTeam(source, taskId);
  const journal = await store.loadJournal(taskId);
  const newer = journal.warnings.find((warning) => warning.code === 'PERSISTENCE_VERSION');
  if (newer) return [422, { error: `Cannot replay task ${taskId}: ${newer.message}` }];
  if (journal.entries.length === 0)
    return [422, { error: `Cannot replay task ${taskId}: its journal in ${name} is empty.` }];
  const warnings = journal.warnings.map(
    (warning) => `the journal is damaged, the replay stops early: ${warning.message}`,
  );
  const { timeline, outcome } = await replayTimeline(store, taskId, {
    storeName: name,
    ...(source.secrets ? { secrets: source.secrets } : {}),
  });
  if (outcome.skipped) warnings.push(`${outcome.skipped}; not compared`);
  return [
    200,
    {
      taskId,
      exact: outcome.matches,
      compared: outcome.compared,
      ...(outcome.differences[0] ? { difference: outcome.differences[0] } : {}),
      warnings,
      timeline: formatTimeline(timeline),
    },
  ];
}

/** A team of the store: its journal and every spell replayed into one timeline (`replayTeamTimeline`). */
async function replayTeam(source: RelayStore, teamId: string): Promise<[number, RelayReplay]> {
  const { timeline, outcome } = await replayTeamTimeline(source.store, teamId, {
    storeName: source.name,
    ...(source.secrets ? { secrets: source.secrets } : {}),
  });
  return [
    200,
    {
      taskId: teamId,
      exact: outcome.matches,
      compared: [`the team's result and its ${outcome.spells.length} spells`],
      ...(outcome.differences[0] ? { difference: outcome.differences[0] } : {}),
      warnings: [],
      timeline: formatTimeline(timeline),
    },
  ];
}

/**
 * The relay's store routes: `GET /store/tasks` lists the newest tasks; `GET /store/tasks/ID/replay`
 * replays one in this process (its journal through its machine: no model, no tool; a team with
 * all its spells) and answers
 * its timeline and whether it reproduced the stored run. Resolves false for any other path.
 */
export async function serveStore(
  source: RelayStore,
  path: string,
  response: ServerResponse,
): Promise<boolean> {
  if (path === '/store/tasks') {
    const page = await source.store.listTasks({ limit: LISTED });
    json(response, 200, {
      store: source.name,
      tasks: page.tasks.map(({ taskId, agent, description, status, createdAt }) => ({
        taskId,
        agent,
        description,
        status,
        createdAt,
      })),
      more: page.cursor !== undefined,
    });
    return true;
  }
  const match = /^\/store\/tasks\/([^/]+)\/replay$/.exec(path);
  if (!match) return false;
  let taskId: string;
  try {
    taskId = decodeURIComponent(match[1]!);
  } catch {
    json(response, 400, { error: `Not a task id: ${match[1]}` });
    return true;
  }
  try {
    const [status, body] = await replay(source, taskId);
    json(response, status, body);
  } catch (error) {
    json(response, 422, { error: `Cannot replay task ${taskId}: ${(error as Error).message}` });
  }
  return true;
}
