import type { StatelyInspectionEvent } from '@statelyai/inspect';
import { applyPatch } from '../timeline/context-patch.js';
import type {
  ActionRecord,
  MicrostepRecord,
  Timeline,
  TimelineHeader,
  TimelineRecord,
} from '../timeline/types.js';

/** A microstep or action event in Stately's wire shape (Stately's own converter drops these). */
export type StatelyExtraEvent = (Omit<MicrostepRecord, 'at'> | Omit<ActionRecord, 'at'>) & {
  createdAt: string;
  id: null;
  _version: string;
};

/** Any event {@link toStatelyEvents} produces. */
export type StatelyWireEvent = StatelyInspectionEvent | StatelyExtraEvent;

/**
 * Turns timeline records, one at a time and in order, back into `@statelyai/inspect`'s wire
 * events: each snapshot with its full context and the event that caused it, each actor with its
 * `definition` text. Definition records produce nothing.
 */
export function createStatelyExpander(
  header: TimelineHeader,
): (record: TimelineRecord) => StatelyWireEvent | undefined {
  const version = header.statelyVersion;
  const definitions = new Map<string, string>();
  const contexts = new Map<string, Record<string, unknown>>();
  const lastEvent = new Map<string, { type: string }>();
  return (record) => {
    if (record.type === 'troupe.definition') {
      definitions.set(record.key, record.definition);
      return undefined;
    }
    // A team's journal event belongs to no actor: Stately has nothing to show it with.
    if (record.type === 'troupe.team') return undefined;
    const common = {
      sessionId: record.sessionId,
      rootId: record.rootId ?? record.sessionId,
      createdAt: String(record.at),
      id: null as unknown as string,
      _version: version,
    };
    switch (record.type) {
      case '@xstate.actor': {
        const context = (record.snapshot.context ?? {}) as Record<string, unknown>;
        contexts.set(record.sessionId, context);
        return {
          ...common,
          type: '@xstate.actor',
          name: record.name,
          parentId: record.parentId,
          // As Stately's own inspector: an actor that is not a machine is defined by its name alone.
          definition: record.definitionKey
            ? definitions.get(record.definitionKey)
            : JSON.stringify({ id: record.name }),
          snapshot: record.snapshot as never,
        };
      }
      case '@xstate.event':
        lastEvent.set(record.sessionId, record.event);
        return { ...common, type: '@xstate.event', event: record.event, sourceId: record.sourceId };
      case '@xstate.snapshot': {
        const context = applyPatch(contexts.get(record.sessionId), record.patch ?? []);
        if (record.snapshot.status === 'active') contexts.set(record.sessionId, context);
        else contexts.delete(record.sessionId);
        const event = lastEvent.get(record.sessionId);
        return {
          ...common,
          type: '@xstate.snapshot',
          event: event?.type === record.eventType ? event : { type: record.eventType },
          snapshot: { ...record.snapshot, context } as never,
        };
      }
      default: {
        const { at: _at, ...rest } = record;
        return { ...rest, createdAt: common.createdAt, id: null, _version: version };
      }
    }
  };
}

/**
 * Expands a whole timeline into `@statelyai/inspect`'s wire events, in order. Feed them to a
 * Stately adapter (`inspector.adapter.send(event)`) to show a recorded run in its inspector.
 */
export function toStatelyEvents(timeline: Timeline): StatelyWireEvent[] {
  const expand = createStatelyExpander(timeline.header);
  const out: StatelyWireEvent[] = [];
  for (const record of timeline.records) {
    const event = expand(record);
    if (event) out.push(event);
  }
  return out;
}
