import { createInspector, type StatelyInspectionEvent } from '@statelyai/inspect';
import { createMemoryStore, createRuntime } from '@troupe/core';
import { manualClock, scriptedModel, textReply, toolReply, turnOf } from '@troupe/core/testing';
import { describe, expect, it } from 'vitest';
import type { InspectionEvent } from 'xstate';
import { toStatelyEvents } from '../src/stately/stately-events.js';
import { createRecorder } from '../src/timeline/recorder.js';
import { guardedEffects } from './fixtures.js';

/** What the Stately inspector shows of an event: its kind, actor, parent, definition, state, event. */
function shown(event: StatelyInspectionEvent) {
  switch (event.type) {
    case '@xstate.actor':
      return [
        event.type,
        event.sessionId,
        event.name,
        event.parentId,
        JSON.parse(event.definition ?? 'null')?.id,
      ];
    case '@xstate.event':
      return [event.type, event.sessionId, event.sourceId, event.event.type];
    case '@xstate.snapshot':
      return [
        event.type,
        event.sessionId,
        JSON.stringify((event.snapshot as { value?: unknown }).value),
        event.event.type,
      ];
  }
}

describe('the stream sent to @statelyai/inspect', () => {
  it("matches what Stately's own createInspector sends its adapter, with the dropped microsteps and actions on top", async () => {
    const stately: StatelyInspectionEvent[] = [];
    const inspector = createInspector({ send: (event) => stately.push(event) });
    const recorder = createRecorder();
    const runtime = createRuntime({
      model: scriptedModel((request) =>
        turnOf(request) === 1 ? toolReply('echo', { text: 'a' }) : textReply('done'),
      ),
      tools: guardedEffects().tools,
      agents: [{ name: 'explore', description: 'Reads.', systemPrompt: 'You explore.', tools: ['echo'] }],
      clock: manualClock(),
      store: createMemoryStore(),
      inspect: (event: InspectionEvent) => {
        recorder.inspect.next?.(event);
        inspector.inspect.next?.(event);
      },
    });
    await runtime.spawn({ agent: 'explore', prompt: 'go', sessionKey: 's1' }).result;
    await runtime.shutdown();
    // Stately converts on a timer (setTimeout 0 in Node): let it catch up.
    await new Promise((resolve) => setTimeout(resolve, 20));

    const ours = toStatelyEvents(recorder.timeline());
    const core = ours.filter((event): event is StatelyInspectionEvent =>
      ['@xstate.actor', '@xstate.event', '@xstate.snapshot'].includes(event.type),
    );
    expect(core.map(shown)).toEqual(stately.map(shown));
    expect(core.every((event) => event._version === stately[0]!._version)).toBe(true);
    // Definitions are the same machine configs Stately sends.
    const definitions = (events: StatelyInspectionEvent[]) =>
      events.flatMap((event) => (event.type === '@xstate.actor' ? [JSON.parse(event.definition!)] : []));
    const stateKeys = (definition: { states?: object }) => Object.keys(definition.states ?? {}).sort();
    expect(definitions(core).map(stateKeys)).toEqual(definitions(stately).map(stateKeys));
    // Every event goes through Stately's adapter API as is.
    const received: unknown[] = [];
    const replayed = createInspector({ send: (event) => received.push(event) });
    for (const event of ours) replayed.adapter.send(event as StatelyInspectionEvent);
    expect(received).toEqual(ours);
    expect(ours.filter((event) => event.type === '@xstate.microstep').length).toBeGreaterThan(0);
    expect(ours.filter((event) => event.type === '@xstate.action').length).toBeGreaterThan(0);
  });
});
