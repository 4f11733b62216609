import { describe, expect, it } from 'vitest';
import { createActor, createMachine } from 'xstate';
import { toStatelyEvents } from '../src/stately/stately-events.js';
import { createRecorder } from '../src/timeline/recorder.js';
import { formatTimeline, parseTimeline } from '../src/timeline/timeline-jsonl.js';
import { API_KEY, scenarios } from './fixtures.js';

/** The effects a task's states invoke, recorded as actors of their own. */
const EFFECTS = new Set(['model', 'tool', 'approval', 'deadline']);

describe('createRecorder', () => {
  it('records the supervisor and each task actor with parent, definition, events, snapshots, microsteps and actions', async () => {
    const run = await scenarios.goal!();
    const { records } = run.timeline;
    const all = records.filter((record) => record.type === '@xstate.actor');
    const actors = all.filter((actor) => !EFFECTS.has(actor.name));
    expect(actors.map((actor) => actor.name)).toEqual(['supervisor', run.results[0]!.taskId]);
    expect(actors[1]).toMatchObject({ parentId: actors[0]!.sessionId, systemId: run.results[0]!.taskId });
    // Each state's effects are the task's children: the run's deadline, a model call per turn, the tool call.
    const effects = all.filter((actor) => EFFECTS.has(actor.name));
    expect(effects.map((actor) => actor.name)).toEqual(['deadline', 'model', 'tool', 'model']);
    expect(effects.every((actor) => actor.parentId === actors[1]!.sessionId)).toBe(true);
    const definitions = records.filter((record) => record.type === 'troupe.definition');
    expect(definitions.map((definition) => JSON.parse(definition.definition).id)).toEqual([
      'supervisor',
      'subagent',
    ]);
    const taskEvents = records
      .filter((record) => record.type === '@xstate.event' && record.sessionId === actors[1]!.sessionId)
      .map((record) => (record.type === '@xstate.event' ? record.event.type : ''));
    expect(taskEvents).toEqual([
      'xstate.init',
      'task.started',
      'model.responded',
      'tool.finished',
      'model.responded',
    ]);
    expect(records.some((record) => record.type === '@xstate.microstep')).toBe(true);
    expect(
      records.some(
        (record) => record.type === '@xstate.action' && record.action.type === 'xstate.spawnChild',
      ),
    ).toBe(true);
  });

  it('writes each snapshot as a context patch that rebuilds the live context exactly', () => {
    const machine = createMachine({
      id: 'counter',
      context: { count: 0, log: [] as string[], fixed: { big: 'x'.repeat(1000) } },
      on: {
        ADD: {
          actions: ({ context, event }: any) => {
            context;
            event;
          },
        },
      },
    });
    const live: unknown[] = [];
    const recorder = createRecorder();
    const actor = createActor(machine.provide({}), {
      inspect: (event) => {
        recorder.inspect.next?.(event);
        if (event.type === '@xstate.snapshot')
          live.push(JSON.parse(JSON.stringify((event.snapshot as any).context)));
      },
    });
    actor.start();
    actor.send({ type: 'ADD' });
    const snapshots = toStatelyEvents(recorder.timeline()).filter(
      (event) => event.type === '@xstate.snapshot',
    );
    expect(snapshots.map((event) => (event as any).snapshot.context)).toEqual(live);
    const patches = recorder.timeline().records.filter((record) => record.type === '@xstate.snapshot');
    // The unchanged 1,000-character field is recorded once, with the actor, never in a snapshot.
    const actorRecord = recorder.timeline().records.find((record) => record.type === '@xstate.actor');
    expect(JSON.stringify(actorRecord)).toContain('x'.repeat(1000));
    expect(JSON.stringify(patches)).not.toContain('x'.repeat(1000));
  });

  it('records a growing conversation as appended messages, not the whole conversation again', async () => {
    const run = await scenarios.maxTurns!();
    const patches = run.timeline.records.flatMap((record) =>
      record.type === '@xstate.snapshot' ? (record.patch ?? []) : [],
    );
    const messageChanges = patches.filter((change) => change.key === 'messages');
    expect(messageChanges.length).toBeGreaterThan(3);
    expect(messageChanges.every((change) => change.op === 'append')).toBe(true);
  });

  it('never records a secret: not the API key a tool printed, nor any field named like a credential', async () => {
    const run = await scenarios.approvals!();
    const text = formatTimeline(run.timeline);
    expect(text).toContain('saved n1 with key [redacted]');
    expect(text).not.toContain(API_KEY);

    const recorder = createRecorder();
    const machine = createMachine({
      id: 'm',
      context: { apiKey: 'abc-secret-123', headers: { authorization: 'Bearer xyz' } },
    });
    const actor = createActor(machine, { inspect: recorder.inspect });
    actor.start();
    actor.send({ type: 'LOGIN', password: 'hunter2hunter2', token: 'Bearer abcdefghijklmnopqrstuvwxyz' });
    const recorded = formatTimeline(recorder.timeline());
    for (const secret of ['abc-secret-123', 'Bearer xyz', 'hunter2hunter2', 'abcdefghijklmnopqrstuvwxyz'])
      expect(recorded).not.toContain(secret);
    expect(recorded).toContain('"apiKey":"[redacted]"');
    expect(recorded).toContain('"password":"[redacted]"');
  });

  it('round-trips through JSON Lines', async () => {
    const run = await scenarios.approvals!();
    expect(parseTimeline(formatTimeline(run.timeline))).toEqual(run.timeline);
  });
});

describe('a session under the recorder', () => {
  it("records the session and its main agent's run as actors of the runtime's one system, beside the task it delegates", async () => {
    const { createMemoryStore, createRuntime } = await import('@troupe/core');
    const { manualClock, scriptedModel, textReply, toolReply } = await import('@troupe/core/testing');
    const recorder = createRecorder();
    const runtime = createRuntime({
      model: scriptedModel((request) => {
        const main = request.tools.some((tool) => tool.name === 'task');
        const answered = request.messages.some((message) => message.role === 'assistant');
        if (main && !answered)
          return toolReply('task', { description: 'Look', prompt: 'look', subagent_type: 'explore' });
        return textReply(main ? 'the sub-agent looked' : 'looked');
      }),
      agents: [{ name: 'explore', description: 'Reads.', systemPrompt: 'You explore.', tools: [] }],
      clock: manualClock(),
      store: createMemoryStore(),
      inspect: recorder.inspect,
    });
    const session = runtime.createSession({ sessionKey: 's1' });
    const reply = await session.send('look around');
    expect(reply.text).toBe('the sub-agent looked');
    await runtime.shutdown();
    const actors = recorder
      .timeline()
      .records.flatMap((record) =>
        record.type === '@xstate.actor' && !EFFECTS.has(record.name) ? [record] : [],
      );
    const nameOf = new Map(actors.map((actor) => [actor.sessionId, actor.name]));
    expect(actors.map((actor) => [actor.name, actor.parentId && nameOf.get(actor.parentId)])).toEqual([
      ['supervisor', undefined],
      [expect.stringMatching(/^session:\d+$/), 'supervisor'],
      [reply.result.taskId, expect.stringMatching(/^session:\d+$/)],
      [expect.stringMatching(/^t_/), 'supervisor'],
    ]);
  });
});
