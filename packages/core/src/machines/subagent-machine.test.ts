import { getAdjacencyMap, getShortestPaths } from '@xstate/graph';
import { describe, expect, it } from 'vitest';
import { createActor, type SnapshotFrom } from 'xstate';
import type { SubagentEvent } from './subagent-events.js';
import { type SubagentMachine, subagentMachine } from './subagent-machine.js';
import { planCall, subagentInput } from './test-fixtures.js';

type Snapshot = SnapshotFrom<SubagentMachine>;

const input = subagentInput({ hasOutputSchema: true });

const START_AT = 1_000;

function phase(snapshot: Snapshot): string {
  const value = snapshot.value;
  return typeof value === 'string' ? value : `running.${value.running}`;
}

function responded(snapshot: Snapshot, kind: string, tokens = 10): SubagentEvent {
  const turn = snapshot.context.turns + 1;
  const at = snapshot.context.now + 1;
  const usage = { input: tokens, output: tokens };
  const id = `tu${turn}`;
  switch (kind) {
    case 'answer':
      return {
        type: 'model.responded',
        at,
        turn,
        response: { content: [{ type: 'text', text: '{"ok":true}' }], usage },
        plan: [],
        outputCheck: { ok: true, value: { ok: true } },
      };
    case 'badAnswer':
      return {
        type: 'model.responded',
        at,
        turn,
        response: { content: [{ type: 'text', text: 'not json' }], usage },
        plan: [],
        outputCheck: { ok: false, message: 'expected JSON' },
      };
    default: {
      const disposition = kind as 'run' | 'approval' | 'rejected';
      return {
        type: 'model.responded',
        at,
        turn,
        response: {
          content: [{ type: 'tool_use', id, name: disposition === 'run' ? 'read' : 'write', input: {} }],
          usage,
        },
        plan: [planCall(id, disposition)],
      };
    }
  }
}

/** The events that make sense in a state: what the task driver and the host could send there. */
function eventsFor(snapshot: Snapshot): SubagentEvent[] {
  const context = snapshot.context;
  const at = context.now + 1;
  const cancel: SubagentEvent = { type: 'cancel.requested', at };
  // At most one steering message waits at a time, and only early on: enough to take every edge.
  const steer: SubagentEvent[] =
    (context.steering?.length ?? 0) === 0 && context.turns < 2
      ? [{ type: 'task.steered', at, text: 'focus' }]
      : [];
  switch (phase(snapshot)) {
    case 'pending':
      return [
        { type: 'task.started', at: START_AT, deadline: START_AT + input.limits.timeoutMs },
        cancel,
        ...(context.messages.length < 2 ? steer : []),
      ];
    case 'running.thinking':
      return [
        responded(snapshot, 'answer'),
        responded(snapshot, 'badAnswer'),
        responded(snapshot, 'run'),
        responded(snapshot, 'approval'),
        responded(snapshot, 'rejected'),
        responded(snapshot, 'run', 600),
        {
          type: 'model.failed',
          at,
          turn: context.turns + 1,
          error: { name: 'ModelError', code: 'MODEL_OVERLOADED', message: 'overloaded' },
        },
        { type: 'deadline.passed', at: context.deadline },
        cancel,
        ...steer,
      ];
    case 'running.acting': {
      const next = context.step.plan[context.step.results.length];
      const events: SubagentEvent[] = [{ type: 'deadline.passed', at: context.deadline }, cancel, ...steer];
      if (next && !context.step.inFlight.includes(next.toolUseId))
        events.push({ type: 'tool.started', at, toolUseId: next.toolUseId });
      if (next)
        events.push(
          {
            type: 'tool.finished',
            at,
            toolUseId: next.toolUseId,
            result: { type: 'tool_result', tool_use_id: next.toolUseId, content: 'ok' },
          },
          {
            type: 'tool.finished',
            at: context.deadline + 1,
            toolUseId: next.toolUseId,
            result: { type: 'tool_result', tool_use_id: next.toolUseId, content: 'late' },
          },
        );
      return events;
    }
    case 'running.awaitingApproval': {
      const next = context.step.plan[context.step.results.length]!;
      return [
        { type: 'approval.granted', at: at + 5_000, toolUseId: next.toolUseId },
        { type: 'approval.denied', at, toolUseId: next.toolUseId, reason: 'not now' },
        cancel,
      ];
    }
    case 'running.grace':
      return [
        {
          type: 'model.responded',
          at,
          turn: context.turns + 1,
          response: { content: [{ type: 'text', text: 'best effort' }], usage: { input: 1, output: 1 } },
          plan: [],
        },
        {
          type: 'model.failed',
          at,
          turn: context.turns + 1,
          error: { name: 'ModelError', code: 'MODEL_ERROR', message: 'boom' },
        },
        { type: 'deadline.passed', at: context.deadline },
        cancel,
      ];
    default:
      return [];
  }
}

function serialize(snapshot: Snapshot): string {
  const context = snapshot.context;
  return JSON.stringify([
    phase(snapshot),
    context.turns,
    context.step.results.length,
    context.step.plan.length,
    context.step.inFlight.length,
    context.usage.input > 300,
    context.graceReason,
    context.end?.terminateReason,
    context.deadline > START_AT + input.limits.timeoutMs,
    context.steering?.length ?? 0,
    context.messages.length,
  ]);
}

const paths = getShortestPaths(subagentMachine, {
  input,
  events: eventsFor,
  serializeState: (snapshot) => serialize(snapshot as Snapshot),
  limit: 100_000,
});

/** Every (source state, event, target state) edge of the machine's reachable graph. */
function walkedEdges(): Set<string> {
  const adjacency = getAdjacencyMap(subagentMachine, {
    input,
    events: eventsFor,
    serializeState: (snapshot) => serialize(snapshot as Snapshot),
    limit: 100_000,
  });
  const edges = new Set<string>();
  for (const vertex of Object.values(adjacency)) {
    for (const transition of Object.values(vertex.transitions) as {
      event: SubagentEvent;
      state: unknown;
    }[]) {
      edges.add(
        `${phase(vertex.state as Snapshot)} --${transition.event.type}--> ${phase(transition.state as Snapshot)}`,
      );
    }
  }
  return edges;
}

describe('subagent machine (model-based)', () => {
  it('reaches every state', () => {
    const reached = new Set(paths.map((path) => phase(path.state as Snapshot)));
    expect([...reached].sort()).toEqual(
      [
        'cancelled',
        'completed',
        'failed',
        'pending',
        'running.acting',
        'running.awaitingApproval',
        'running.grace',
        'running.thinking',
      ].sort(),
    );
  });

  it('takes every transition of the machine', () => {
    const edges = walkedEdges();
    const expected = [
      'pending --task.started--> running.thinking',
      'pending --cancel.requested--> cancelled',
      'pending --task.steered--> pending',
      'running.thinking --task.steered--> running.thinking',
      'running.acting --task.steered--> running.acting',
      'running.thinking --model.responded--> running.acting',
      'running.thinking --model.responded--> running.awaitingApproval',
      'running.thinking --model.responded--> running.thinking',
      'running.thinking --model.responded--> completed',
      'running.thinking --model.responded--> failed',
      'running.thinking --model.failed--> failed',
      'running.thinking --deadline.passed--> running.grace',
      'running.thinking --cancel.requested--> cancelled',
      'running.acting --tool.started--> running.acting',
      'running.acting --tool.finished--> running.thinking',
      'running.acting --tool.finished--> running.grace',
      'running.acting --tool.finished--> failed',
      'running.acting --deadline.passed--> running.grace',
      'running.acting --cancel.requested--> cancelled',
      'running.awaitingApproval --approval.granted--> running.acting',
      'running.awaitingApproval --approval.denied--> running.thinking',
      'running.awaitingApproval --approval.denied--> running.grace',
      'running.awaitingApproval --cancel.requested--> cancelled',
      'running.grace --model.responded--> failed',
      'running.grace --model.failed--> failed',
      'running.grace --deadline.passed--> failed',
      'running.grace --cancel.requested--> cancelled',
    ];
    const missing = expected.filter((edge) => !edges.has(edge));
    expect(missing).toEqual([]);
  });

  it('reaches every terminate reason', () => {
    const reasons = new Set(
      paths.map((path) => (path.state as Snapshot).context.end?.terminateReason).filter(Boolean),
    );
    expect([...reasons].sort()).toEqual(['ABORTED', 'ERROR', 'GOAL', 'MAX_TURNS', 'TIMEOUT', 'TOKEN_LIMIT']);
  });

  it('replays every path to the same final snapshot, with a consistent output', () => {
    for (const path of paths) {
      const actor = createActor(subagentMachine, { input }).start();
      for (const step of path.steps.slice(1)) actor.send(step.event as SubagentEvent);
      const snapshot = actor.getSnapshot();
      expect(serialize(snapshot)).toBe(serialize(path.state as Snapshot));
      if (snapshot.status === 'done') {
        const output = snapshot.output!;
        const expectedStatus =
          { GOAL: 'completed', ABORTED: 'cancelled' }[output.terminateReason as string] ?? 'failed';
        expect(output.status).toBe(expectedStatus);
        expect(phase(snapshot)).toBe(expectedStatus);
      }
    }
  });

  it('never counts time awaiting approval against the deadline', () => {
    const actor = createActor(subagentMachine, { input }).start();
    actor.send({ type: 'task.started', at: START_AT, deadline: START_AT + 10_000 });
    actor.send(responded(actor.getSnapshot(), 'approval'));
    expect(phase(actor.getSnapshot())).toBe('running.awaitingApproval');
    actor.send({ type: 'approval.granted', at: START_AT + 1 + 60_000, toolUseId: 'tu1' });
    expect(actor.getSnapshot().context.deadline).toBe(START_AT + 10_000 + 60_000);
  });

  it('ignores stale model responses and timers', () => {
    const actor = createActor(subagentMachine, { input }).start();
    actor.send({ type: 'task.started', at: START_AT, deadline: START_AT + 10_000 });
    const stale = responded(actor.getSnapshot(), 'answer');
    actor.send({ ...stale, turn: 7 } as SubagentEvent);
    actor.send({ type: 'deadline.passed', at: START_AT + 5 });
    expect(phase(actor.getSnapshot())).toBe('running.thinking');
  });
});
