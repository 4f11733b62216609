import type { StatelyInspectionEvent } from '@statelyai/inspect';
import { applyPatch } from './context-patch.js';
import type { ActionRecord, MicrostepRecord, Timeline } from './types.js';

/** A microstep or action event in Stately's wire shape (Stately's own converter drops these). */
export type StatelyExtraEvent = (Omit<MicrostepRecord, 'at'> | Omit<ActionRecord, 'at'>) & {
  createdAt: string;
  id: null;
  _version: string;
};

/**
 * Expands a timeline back into `@statelyai/inspect`'s wire events, in order: every snapshot with
 * its full context and the event that caused it, every actor with its `definition` text. Feed them
 * to a Stately adapter (`inspector.adapter.send(event)`) to show a recorded run in its inspector.
 */
export function toStatelyEvents(timeline: Timeline): (StatelyInspectionEvent | StatelyExtraEvent)[] {
  const version = timeline.header.statelyVersion;
  const definitions = new Map<string, string>();
  const contexts = new Map<string, Record<string, unknown>>();
  const lastEvent = new Map<string, { type: string }>();
  const out: (StatelyInspectionEvent | StatelyExtraEvent)[] = [];
  for (const record of timeline.records) {
    if (record.type === 'troupe.definition') {
      definitions.set(record.key, record.definition);
      continue;
    }
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
        out.push({
          ...common,
          type: '@xstate.actor',
          name: record.name,
          parentId: record.parentId,
          definition: record.definitionKey ? definitions.get(record.definitionKey) : undefined,
          snapshot: record.snapshot as never,
        });
        break;
      }
      case '@xstate.event':
        lastEvent.set(record.sessionId, record.event);
        out.push({ ...common, type: '@xstate.event', event: record.event, sourceId: record.sourceId });
        break;
      case '@xstate.snapshot': {
        const context = applyPatch(contexts.get(record.sessionId), record.patch ?? []);
        contexts.set(record.sessionId, context);
        const event = lastEvent.get(record.sessionId);
        out.push({
          ...common,
          type: '@xstate.snapshot',
          event: event?.type === record.eventType ? event : { type: record.eventType },
          snapshot: { ...record.snapshot, context } as never,
        });
        break;
      }
      default: {
        const { at: _at, ...rest } = record;
        out.push({ ...rest, createdAt: common.createdAt, id: null, _version: version });
      }
    }
  }
  return out;
}
