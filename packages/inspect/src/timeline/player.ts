import { applyPatch } from './context-patch.js';
import type { ContextPatch, EventRecord, Timeline } from './types.js';

/** An actor as it is at one frame. */
export interface ActorState {
  sessionId: string;
  /** The actor's id (a task actor's id is its task id). */
  name: string;
  parentId?: string;
  systemId?: string;
  definitionKey?: string;
  /** XState's snapshot status: `active`, `done`, `error` or `stopped`. */
  status: string;
  value: unknown;
  context: Record<string, unknown>;
  output?: unknown;
  /** The frame the actor appeared at. */
  since: number;
}

/** What changed in one context field at a frame. */
export interface ContextChange {
  key: string;
  op: ContextPatch['op'];
  before: unknown;
  after: unknown;
}

/** One step of the timeline: an actor appeared, or took an event to a new snapshot. */
export interface Frame {
  index: number;
  /** Position of the record in `timeline.records`. */
  recordIndex: number;
  at: number;
  kind: 'actor' | 'snapshot';
  /** The actor that changed. */
  sessionId: string;
  /** The event the actor took (snapshot frames). */
  event?: EventRecord['event'];
  /** Where the event came from (another actor's sessionId), if known. */
  sourceId?: string;
  /** The state value before the frame (snapshot frames). */
  previousValue?: unknown;
  changes: ContextChange[];
  /**
   * The transitions the actor took in this frame's macrostep (from the timeline's microstep
   * records): state node ids, e.g. `subagent.running.thinking` → `subagent.running.acting`.
   */
  taken: TakenTransition[];
  /** Every actor known at this frame. */
  actors: ReadonlyMap<string, ActorState>;
}

/** A transition an actor took: its source and target state node ids, and the event. */
export interface TakenTransition {
  source: string;
  targets: string[];
  eventType: string;
}

/** One delivered event, for the event log, with the frame it led to. */
export interface LoggedEvent {
  recordIndex: number;
  at: number;
  sessionId: string;
  sourceId?: string;
  event: EventRecord['event'];
  /** The frame at which the event's effect is shown (its snapshot), or -1 if it led to none. */
  frame: number;
}

/** A timeline prepared for stepping: its frames, its event log and its machine definitions. */
export interface TimelineModel {
  frames: Frame[];
  events: LoggedEvent[];
  /** Definition key → machine config JSON text. */
  definitions: ReadonlyMap<string, string>;
}

/**
 * An effect a task or main-agent run invokes (its model call, tool call, approval wait, deadline):
 * an actor with no context of its own whose parent has a task. Its work shows in its parent's
 * events; it makes no frame and its own events are not logged.
 */
function isEffectRecord(context: Record<string, unknown>, parent: ActorState | undefined): boolean {
  const task = parent?.context.task;
  return !!task && typeof task === 'object' && Object.keys(context).length === 0;
}

/**
 * Builds the frames of a timeline: the state of every actor after each actor creation and each
 * snapshot, with what changed in the context. A step is a frame: frame 0 is the first actor as it
 * started (its `xstate.init` belongs to the frame that created it), and each later frame is an
 * actor created or an event taken. The effects tasks invoke (model, tool, approval, deadline)
 * make no frame and their events are not logged (their parent's events carry their work), so a
 * replayed task's frame N is its state after N journal entries: the step `troupe replay` prints
 * and `runtime.fork` / `--fork-at` take. Frames share unchanged data, so stepping back and forth
 * is a lookup. Framework-free: the web inspector and tests use it alike.
 */
export function buildTimelineModel(timeline: Timeline): TimelineModel {
  const definitions = new Map<string, string>();
  const frames: Frame[] = [];
  const events: LoggedEvent[] = [];
  const pending = new Map<string, LoggedEvent[]>();
  const microsteps = new Map<string, TakenTransition[]>();
  const effects = new Set<string>();
  let actors = new Map<string, ActorState>();
  timeline.records.forEach((record, recordIndex) => {
    if ('sessionId' in record && effects.has(record.sessionId)) {
      // An effect's own state is kept (the run tree may ask), but it makes no frame and no event.
      if (record.type === '@xstate.snapshot') {
        const before = actors.get(record.sessionId);
        if (before) {
          actors = new Map(actors);
          actors.set(record.sessionId, {
            ...before,
            status: record.snapshot.status,
            value: record.snapshot.value,
          });
        }
      }
      return;
    }
    switch (record.type) {
      case 'troupe.definition':
        definitions.set(record.key, record.definition);
        return;
      case '@xstate.event': {
        const logged: LoggedEvent = {
          recordIndex,
          at: record.at,
          sessionId: record.sessionId,
          event: record.event,
          frame: -1,
          ...(record.sourceId ? { sourceId: record.sourceId } : {}),
        };
        events.push(logged);
        const queue = pending.get(record.sessionId) ?? [];
        queue.push(logged);
        pending.set(record.sessionId, queue);
        return;
      }
      case '@xstate.microstep': {
        const list = microsteps.get(record.sessionId) ?? [];
        for (const transition of record.transitions ?? [])
          list.push({
            source: String(transition.source),
            targets: (transition.targets ?? []).map(String),
            eventType: String(transition.eventType),
          });
        microsteps.set(record.sessionId, list);
        return;
      }
      case '@xstate.actor': {
        actors = new Map(actors);
        const context = (record.snapshot.context ?? {}) as Record<string, unknown>;
        const effect = isEffectRecord(context, record.parentId ? actors.get(record.parentId) : undefined);
        const state: ActorState = {
          sessionId: record.sessionId,
          name: record.name,
          status: record.snapshot.status,
          value: record.snapshot.value,
          context,
          since: frames.length,
          ...(record.parentId ? { parentId: record.parentId } : {}),
          ...(record.systemId ? { systemId: record.systemId } : {}),
          ...(record.definitionKey ? { definitionKey: record.definitionKey } : {}),
        };
        actors.set(record.sessionId, state);
        if (effect) {
          effects.add(record.sessionId);
          return;
        }
        frames.push({
          index: frames.length,
          recordIndex,
          at: record.at,
          kind: 'actor',
          sessionId: record.sessionId,
          changes: Object.keys(context).map((key) => ({
            key,
            op: 'set',
            before: undefined,
            after: context[key],
          })),
          taken: [],
          actors,
        });
        return;
      }
      case '@xstate.snapshot': {
        const before = actors.get(record.sessionId);
        const queue = pending.get(record.sessionId) ?? [];
        const index = queue.findIndex((logged) => logged.event.type === record.eventType);
        const cause = index >= 0 ? queue[index] : undefined;
        if (index >= 0) queue.splice(0, index + 1);
        const patch = record.patch ?? [];
        const context = applyPatch(before?.context, patch);
        const changes = patch.map((change) => ({
          key: change.key,
          op: change.op,
          before: before?.context[change.key],
          after: context[change.key],
        }));
        actors = new Map(actors);
        actors.set(record.sessionId, {
          ...(before ?? { sessionId: record.sessionId, name: record.sessionId, since: frames.length }),
          status: record.snapshot.status,
          value: record.snapshot.value,
          context,
          ...(record.snapshot.output !== undefined ? { output: record.snapshot.output } : {}),
        });
        const taken = microsteps.get(record.sessionId) ?? [];
        microsteps.delete(record.sessionId);
        const latest = frames.at(-1);
        if (
          record.eventType === 'xstate.init' &&
          latest?.kind === 'actor' &&
          latest.sessionId === record.sessionId
        ) {
          // The actor's start: part of the frame that created it, not a step of its own.
          const state = actors.get(record.sessionId)!;
          latest.actors = actors;
          latest.changes = Object.keys(state.context).map((key) => ({
            key,
            op: 'set',
            before: undefined,
            after: state.context[key],
          }));
          if (cause) cause.frame = latest.index;
          return;
        }
        if (cause) cause.frame = frames.length;
        frames.push({
          index: frames.length,
          recordIndex,
          at: record.at,
          kind: 'snapshot',
          sessionId: record.sessionId,
          event: cause?.event ?? { type: record.eventType },
          ...(cause?.sourceId ? { sourceId: cause.sourceId } : {}),
          previousValue: before?.value,
          changes,
          taken,
          actors,
        });
        return;
      }
      default:
        return;
    }
  });
  return { frames, events, definitions };
}

/** A state value as text: `running.thinking`, `completed`, `{ a: x, b: y }` for parallel states. */
export function formatStateValue(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value !== 'object') return String(value);
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 1) {
    const [key, inner] = entries[0]!;
    const rest = formatStateValue(inner);
    return rest ? `${key}.${rest}` : key;
  }
  return `{ ${entries.map(([key, inner]) => `${key}: ${formatStateValue(inner)}`).join(', ')} }`;
}

/** The state node paths a value makes active, e.g. `{ running: 'acting' }` → `running`, `running.acting`. */
export function activePaths(value: unknown, prefix = ''): string[] {
  if (value === undefined || value === null) return [];
  if (typeof value === 'string') return [prefix ? `${prefix}.${value}` : value];
  if (typeof value !== 'object') return [];
  const out: string[] = [];
  for (const [key, inner] of Object.entries(value as Record<string, unknown>)) {
    const path = prefix ? `${prefix}.${key}` : key;
    out.push(path, ...activePaths(inner, path));
  }
  return out;
}
