import type { TeamConfig, TeamEvent } from '@troupe/core';
import type { InspectionEvent, Observer } from 'xstate';
import { createRedactor, type RedactorOptions } from '../wire/redact.js';
import { STATELY_WIRE_VERSION } from '../wire/stately-version.js';
import { toJsonValue } from '../wire/to-json-value.js';
import { type ContextTrack, diffContext, trackContext } from './context-patch.js';
import {
  type ActorRecord,
  type RecordedSnapshot,
  type TeamRecord,
  TIMELINE_FORMAT,
  TIMELINE_VERSION,
  type Timeline,
  type TimelineHeader,
  type TimelineRecord,
} from './types.js';

/** Options of {@link createRecorder}. */
export interface RecorderOptions extends RedactorOptions {
  /** Where the timeline came from (written in its header). Default `{ kind: 'live' }`. */
  source?: TimelineHeader['source'];
  /** Time source in ms since epoch. Default `Date.now`. */
  now?: () => number;
  /** Keep the records in memory for {@link TimelineRecorder.timeline}. Default true; turn off when streaming. */
  keep?: boolean;
}

/** A recorder of one runtime's (or one replay's) inspection events. */
export interface TimelineRecorder {
  /** Pass this as `inspect` to `createRuntime`, `replayTask` or `createActor`. */
  readonly inspect: Observer<InspectionEvent>;
  readonly header: TimelineHeader;
  /** The timeline so far (records are kept unless `keep: false`). */
  timeline(): Timeline;
  /** Calls `listener` with every record from now on (to stream it to a file, a relay, a store). */
  subscribe(listener: (record: TimelineRecord) => void): () => void;
  /**
   * Records an event an agent team journaled (a `troupe.team` record; the team's first carries its
   * config), in its place among the actors' records. `recordTeams(runtime, recorder)` feeds it the
   * runtime's `team.event`s.
   */
  team(teamId: string, event: TeamEvent, config: TeamConfig): void;
}

interface AnyActorRef {
  id: string;
  sessionId: string;
  systemId?: string;
  _systemId?: string;
  _parent?: { sessionId: string };
  logic?: { config?: { id?: string } };
  getSnapshot(): unknown;
}

/**
 * Records every inspection event of the actors it is attached to, synchronously and in order, as
 * a compact timeline: Stately's wire format (`@xstate.actor` with `parentId` and `definition`,
 * `@xstate.event`, `@xstate.snapshot`) plus the `@xstate.microstep` and `@xstate.action` events
 * Stately's stock converter drops. Each machine definition is written once; snapshots carry a
 * patch of their context. Secrets are redacted before anything is recorded (see `createRedactor`).
 */
export function createRecorder(options: RecorderOptions = {}): TimelineRecorder {
  const redactor = createRedactor(options);
  const now = options.now ?? Date.now;
  const keep = options.keep ?? true;
  const header: TimelineHeader = {
    format: TIMELINE_FORMAT,
    v: TIMELINE_VERSION,
    statelyVersion: STATELY_WIRE_VERSION,
    createdAt: now(),
    source: options.source ?? { kind: 'live' },
  };
  const records: TimelineRecord[] = [];
  const listeners = new Set<(record: TimelineRecord) => void>();
  const definitionKeys = new WeakMap<object, string>();
  const definitionsByText = new Map<string, string>();
  const contexts = new Map<string, ContextTrack>();

  const emit = (record: TimelineRecord) => {
    if (keep) records.push(record);
    for (const listener of listeners) listener(record);
  };

  const definitionKey = (config: object | undefined): string | undefined => {
    if (!config) return undefined;
    const known = definitionKeys.get(config);
    if (known) return known;
    const text = JSON.stringify(toJsonValue(config, redactor));
    let key = definitionsByText.get(text);
    if (!key) {
      const id = (config as { id?: unknown }).id;
      key = `${typeof id === 'string' ? id : 'machine'}#${definitionsByText.size + 1}`;
      definitionsByText.set(text, key);
      emit({ type: 'troupe.definition', key, definition: text });
    }
    definitionKeys.set(config, key);
    return key;
  };

  const snapshotOf = (snapshot: unknown, sessionId: string, full: boolean): RecordedSnapshot => {
    const source = (snapshot ?? {}) as Record<string, unknown>;
    const out: RecordedSnapshot = { status: typeof source.status === 'string' ? source.status : 'active' };
    if (source.value !== undefined) out.value = toJsonValue(source.value, redactor);
    if (source.output !== undefined) out.output = toJsonValue(source.output, redactor);
    if (source.error !== undefined) out.error = toJsonValue(source.error, redactor);
    if (full && source.context && typeof source.context === 'object') {
      const track: ContextTrack = { live: undefined, json: new Map() };
      contexts.set(sessionId, track);
      out.context = trackContext(track, source.context as Record<string, unknown>, redactor);
    }
    return out;
  };

  const pendingActors: { actor: AnyActorRef; base: { sessionId: string; rootId: string; at: number } }[] = [];
  const writeActor = (actor: AnyActorRef, base: { sessionId: string; rootId: string; at: number }) => {
    const config = actor.logic?.config;
    let snapshot: unknown;
    try {
      snapshot = actor.getSnapshot();
    } catch {
      snapshot = undefined;
    }
    // A machine's config is its definition; other logic (an effect's callback) has none.
    const key = definitionKey(typeof config === 'object' ? config : undefined);
    const out: ActorRecord = {
      type: '@xstate.actor',
      ...base,
      name: actor.id === actor.sessionId && config?.id ? config.id : actor.id,
      snapshot: snapshotOf(snapshot, actor.sessionId, true),
    };
    if (actor._parent) out.parentId = actor._parent.sessionId;
    const systemId = actor.systemId ?? actor._systemId;
    if (systemId) out.systemId = systemId;
    if (key) out.definitionKey = key;
    emit(out);
  };
  const flushActors = () => {
    while (pendingActors.length) {
      const { actor, base } = pendingActors.shift()!;
      writeActor(actor, base);
    }
  };

  const record = (event: InspectionEvent) => {
    flushActors();
    const actor = event.actorRef as unknown as AnyActorRef;
    const base = { sessionId: actor.sessionId, rootId: event.rootId, at: now() };
    switch (event.type) {
      case '@xstate.actor':
        // XState assigns `systemId` just after announcing the actor: write it with the next event.
        pendingActors.push({ actor, base });
        return;
      case '@xstate.event': {
        const sourceId = (event.sourceRef as AnyActorRef | undefined)?.sessionId;
        emit({
          type: '@xstate.event',
          ...base,
          ...(sourceId ? { sourceId } : {}),
          event: toJsonValue(event.event, redactor) as { type: string },
        });
        return;
      }
      case '@xstate.snapshot': {
        const snapshot = event.snapshot as unknown as Record<string, unknown>;
        const context = snapshot.context;
        let track = contexts.get(actor.sessionId);
        if (!track && context && typeof context === 'object') {
          track = { live: undefined, json: new Map() };
          contexts.set(actor.sessionId, track);
        }
        const patch =
          track && context && typeof context === 'object'
            ? diffContext(track, context as Record<string, unknown>, redactor)
            : [];
        const recorded = snapshotOf(snapshot, actor.sessionId, false);
        if (recorded.status !== 'active') contexts.delete(actor.sessionId);
        emit({
          type: '@xstate.snapshot',
          ...base,
          eventType: event.event.type,
          snapshot: recorded,
          ...(patch.length ? { patch } : {}),
        });
        return;
      }
      case '@xstate.microstep':
        emit({
          type: '@xstate.microstep',
          ...base,
          eventType: event.event.type,
          value: toJsonValue((event.snapshot as { value?: unknown }).value, redactor),
          transitions: event._transitions.map((transition) => ({
            source: transition.source.id,
            targets: (transition.target ?? []).map((target) => target.id),
            eventType: transition.eventType,
          })),
        });
        return;
      case '@xstate.action': {
        const params = event.action.params;
        emit({
          type: '@xstate.action',
          ...base,
          action:
            params === undefined
              ? { type: event.action.type }
              : { type: event.action.type, params: toJsonValue(params, redactor) },
        });
        return;
      }
    }
  };

  const teams = new Set<string>();
  const team = (teamId: string, event: TeamEvent, config: TeamConfig) => {
    flushActors();
    const out: TeamRecord = {
      type: 'troupe.team',
      teamId,
      at: now(),
      event: toJsonValue(event, redactor) as TeamEvent,
    };
    if (!teams.has(teamId)) {
      teams.add(teamId);
      out.config = toJsonValue(config, redactor) as TeamConfig;
    }
    emit(out);
  };

  return {
    inspect: { next: record },
    header,
    team,
    timeline: () => {
      flushActors();
      return { header, records: [...records] };
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
