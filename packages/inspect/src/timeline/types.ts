import type { TeamConfig, TeamEvent } from '@troupe/core';

/** The `format` field of a timeline's first line. */
export const TIMELINE_FORMAT = 'troupe.timeline';

/** Version of the timeline format this package writes and reads. */
export const TIMELINE_VERSION = 1 as const;

/** The first line of a timeline: what it is and where it came from. */
export interface TimelineHeader {
  format: typeof TIMELINE_FORMAT;
  v: typeof TIMELINE_VERSION;
  /** `@statelyai/inspect` wire-format version the records expand to. */
  statelyVersion: string;
  /** Ms since epoch. */
  createdAt: number;
  /** A live runtime, or the replay of one stored task. */
  source: { kind: 'live' } | { kind: 'replay'; taskId: string; store?: string };
}

/** An actor's snapshot as recorded: its state, and its context in full (actor records) or as a patch. */
export interface RecordedSnapshot {
  status: string;
  value?: unknown;
  context?: unknown;
  output?: unknown;
  error?: unknown;
}

/** One change to a context's top-level field. `append` adds items to the end of an array. */
export type ContextPatch =
  | { op: 'set'; key: string; value: unknown }
  | { op: 'append'; key: string; values: unknown[] }
  | { op: 'unset'; key: string };

/** A machine definition, recorded once and referred to by `definitionKey`. */
export interface DefinitionRecord {
  type: 'troupe.definition';
  key: string;
  /** The machine's config as JSON text: the `definition` of Stately's `@xstate.actor` event. */
  definition: string;
}

interface Base {
  /** The actor: XState's `sessionId`. */
  sessionId: string;
  rootId?: string;
  /** Ms since epoch. */
  at: number;
}

/** An actor was created (Stately's `@xstate.actor`). */
export interface ActorRecord extends Base {
  type: '@xstate.actor';
  /** The actor's id (a task actor's id is its task id). */
  name: string;
  parentId?: string;
  systemId?: string;
  definitionKey?: string;
  snapshot: RecordedSnapshot;
}

/** An event was delivered to an actor (Stately's `@xstate.event`). */
export interface EventRecord extends Base {
  type: '@xstate.event';
  sourceId?: string;
  event: { type: string; [key: string]: unknown };
}

/** An actor's state after an event (Stately's `@xstate.snapshot`); the event is the preceding `@xstate.event`. */
export interface SnapshotRecord extends Base {
  type: '@xstate.snapshot';
  eventType: string;
  snapshot: Omit<RecordedSnapshot, 'context'>;
  patch?: ContextPatch[];
}

/** One microstep of a macrostep: the transitions taken (dropped by Stately's stock converter). */
export interface MicrostepRecord extends Base {
  type: '@xstate.microstep';
  eventType: string;
  value: unknown;
  transitions: { source: string; targets: string[]; eventType: string }[];
}

/** An action executed (dropped by Stately's stock converter). */
export interface ActionRecord extends Base {
  type: '@xstate.action';
  action: { type: string; params?: unknown };
}

/**
 * One event of an agent team's journal (`team.message`, `team.spell.started`, `team.task.updated`,
 * …), in its place among the records of its members' spells. The team's first record carries its
 * config (members, lead, limits). Not an actor: it makes no frame; `teamTracks` reads these.
 */
export interface TeamRecord {
  type: 'troupe.team';
  /** The team's id (its own task's id). */
  teamId: string;
  /** Ms since epoch: the event's own time. */
  at: number;
  /** The team's config: on the team's first record. */
  config?: TeamConfig;
  event: TeamEvent;
}

/** Any line after the header. */
export type TimelineRecord =
  | DefinitionRecord
  | TeamRecord
  | ActorRecord
  | EventRecord
  | SnapshotRecord
  | MicrostepRecord
  | ActionRecord;

/** A whole timeline in memory: its header and its records in order. */
export interface Timeline {
  header: TimelineHeader;
  records: TimelineRecord[];
}
