import {
  replayTeam,
  type TaskStore,
  type TeamConfig,
  type TeamEvent,
  type TeamReplayOutcome,
  TroupeError,
} from '@troupe/core';
import { createRedactor, teamConfigOf, teamEventsOf } from '@troupe/core/internal';
import {
  type TeamRecord,
  TIMELINE_FORMAT,
  TIMELINE_VERSION,
  type Timeline,
  type TimelineRecord,
} from '../timeline/types.js';
import { STATELY_WIRE_VERSION } from '../wire/stately-version.js';
import { toJsonValue } from '../wire/to-json-value.js';
import { recordReplay, replaySource } from './replay-timeline.js';

/** Options of {@link replayTeamTimeline}. */
export interface ReplayTeamTimelineOptions {
  /** Exact secret values to redact (see `createRedactor`). */
  secrets?: readonly (string | undefined)[];
  /** Named in the timeline's header. */
  storeName?: string;
}

/** A replayed team's outcome (core's `replayTeam`) and the timeline of the team and its spells. */
export interface ReplayTeamTimeline {
  outcome: TeamReplayOutcome;
  timeline: Timeline;
}

/**
 * Replays a stored agent team and records one timeline of it: the team's journal events as
 * `troupe.team` records (the first with the team's config) and each member's spell replayed from
 * its own journal (`replayTimeline`, no model, no tool), merged by time — on a tie, a team event
 * comes first (a spell starts after the team journaled it). Each spell's actors are renamed
 * `<spell id>:<session id>`, as every replay's actor system counts from `x:0`. Whether the team
 * replays exactly is core's check (`replayTeam`): `outcome.matches`, `outcome.differences`.
 * Throws `TASK_NOT_FOUND` for an id that is not a stored team.
 */
export async function replayTeamTimeline(
  store: TaskStore,
  teamId: string,
  options: ReplayTeamTimelineOptions = {},
): Promise<ReplayTeamTimeline> {
  const outcome = await replayTeam(store, teamId);
  const task = await store.getTask(teamId);
  const config = task && teamConfigOf(task.spec);
  if (!config) throw new TroupeError('TASK_NOT_FOUND', `No team "${teamId}" in the store.`);
  const events = teamEventsOf((await store.loadJournal(teamId)).entries);
  const redactor = createRedactor(options.secrets ? { secrets: options.secrets } : {});
  const teamRecords: TimelineRecord[] = events.map((event, index) => {
    const record: TeamRecord = {
      type: 'troupe.team',
      teamId,
      at: event.at,
      event: toJsonValue(event, redactor) as TeamEvent,
    };
    if (index === 0) record.config = toJsonValue(config, redactor) as TeamConfig;
    return record;
  });
  const streams: TimelineRecord[][] = [teamRecords];
  for (const event of events) {
    if (event.type !== 'team.spell.started' || !(await store.getTask(event.taskId))) continue;
    const spell = await recordReplay(
      store,
      event.taskId,
      options.secrets ? { secrets: options.secrets } : {},
      event.at,
    );
    streams.push(spell.timeline.records.map((record) => renamed(record, event.taskId)));
  }
  const timeline: Timeline = {
    header: {
      format: TIMELINE_FORMAT,
      v: TIMELINE_VERSION,
      statelyVersion: STATELY_WIRE_VERSION,
      createdAt: task.spec.createdAt,
      source: replaySource(teamId, options.storeName),
    },
    records: mergeByTime(streams),
  };
  return { outcome, timeline };
}

/** A spell's record with its actors' session ids prefixed by the spell's id (unique in the team). */
function renamed(record: TimelineRecord, spell: string): TimelineRecord {
  if (!('sessionId' in record)) return record;
  const prefix = (id: string) => `${spell}:${id}`;
  const out = { ...record, sessionId: prefix(record.sessionId) };
  if (out.rootId) out.rootId = prefix(out.rootId);
  if ('parentId' in out && out.parentId) out.parentId = prefix(out.parentId);
  if ('sourceId' in out && out.sourceId) out.sourceId = prefix(out.sourceId);
  return out;
}

/**
 * The records of every stream in one order: each stream's own order kept, the earliest head
 * first, on a tie the stream listed first. A machine definition already given is left out.
 */
function mergeByTime(streams: readonly TimelineRecord[][]): TimelineRecord[] {
  const next = streams.map(() => 0);
  const definitions = new Set<string>();
  const out: TimelineRecord[] = [];
  for (;;) {
    let best = -1;
    for (let index = 0; index < streams.length; index++) {
      const head = streams[index]![next[index]!];
      if (!head) continue;
      const bestHead = best >= 0 ? streams[best]![next[best]!]! : undefined;
      if (!bestHead || timeOf(head) < timeOf(bestHead)) best = index;
    }
    if (best < 0) return out;
    const record = streams[best]![next[best]!]!;
    next[best]!++;
    if (record.type === 'troupe.definition') {
      if (definitions.has(record.key)) continue;
      definitions.add(record.key);
    }
    out.push(record);
  }
}

/** A record's time; a definition has none and goes with the record after it. */
function timeOf(record: TimelineRecord): number {
  return 'at' in record ? record.at : Number.NEGATIVE_INFINITY;
}
