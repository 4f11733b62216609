import { describe, expect, it } from 'vitest';
import { type AnyActorRef, createActor, fromCallback } from 'xstate';
import type { DeadlineCommand, DeadlineEffectInput } from './subagent-effects.js';
import type { ToolCallPlan } from './subagent-events.js';
import { subagentMachine } from './subagent-machine.js';
import { planCall, respondedWith, subagentInput, toolFinished } from './test-fixtures.js';

/** The effects the actor's state has invoked, by actor id, with their input. */
function invoked(children: Record<string, AnyActorRef | undefined>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [id, child] of Object.entries(children))
    if (child) out[id] = (child.getSnapshot() as { input?: unknown }).input ?? null;
  return out;
}

const input = subagentInput({
  agent: 'writer',
  messages: [{ role: 'user', content: 'Write two notes' }],
  limits: { maxTurns: 1, tokenBudget: 1_000, timeoutMs: 10_000 },
});
const plan: ToolCallPlan[] = [planCall('r1', 'run'), planCall('bad', 'rejected'), planCall('w1', 'approval')];
const responded = respondedWith(plan, 1_010);

describe('the effects a subagent state invokes', () => {
  it('invokes the model call, each runnable call, the approval, then the grace turn; the deadline pauses in approval', () => {
    // The deadline as the machine commands it: armed at the start, paused, moved.
    const deadline: (number | 'paused')[] = [];
    const machine = subagentMachine.provide({
      actors: {
        deadline: fromCallback<DeadlineCommand, DeadlineEffectInput>(({ input, receive }) => {
          deadline.push(input.deadline);
          receive((command) =>
            deadline.push(command.type === 'deadline.moved' ? command.deadline : 'paused'),
          );
        }),
      },
    });
    const actor = createActor(machine, { input }).start();
    const seen = () => invoked(actor.getSnapshot().children);
    expect(seen()).toEqual({});
    actor.send({ type: 'task.started', at: 1_000, deadline: 11_000 });
    expect(seen()).toEqual({ model: { turn: 1, grace: false }, deadline: { deadline: 11_000 } });
    const modelCall = actor.getSnapshot().children.model;
    actor.send(responded);
    expect(seen()).toEqual({ tool: null, deadline: { deadline: 11_000 } });
    // Leaving `thinking` stopped its model call.
    expect(modelCall?.getSnapshot().status).toBe('stopped');
    const readCall = actor.getSnapshot().children.tool;
    actor.send(toolFinished('r1', 1_020, 'x'));
    // The rejected call is answered by the machine itself; the write call waits for a decision,
    // with the deadline paused.
    expect(readCall?.getSnapshot().status).toBe('stopped');
    expect(seen()).toEqual({ approval: null, deadline: { deadline: 11_000 } });
    expect(deadline).toEqual([11_000, 'paused']);
    actor.send({ type: 'approval.granted', at: 2_020, toolUseId: 'w1' });
    // A second spent in approval moved the deadline by a second.
    expect(seen()).toEqual({ tool: null, deadline: { deadline: 11_000 } });
    expect(deadline).toEqual([11_000, 'paused', 12_000]);
    actor.send({ type: 'tool.started', at: 2_025, toolUseId: 'w1' });
    const writeCall = actor.getSnapshot().children.tool;
    actor.send(toolFinished('w1', 2_030));
    expect(writeCall?.getSnapshot().status).toBe('stopped');
    // maxTurns 1 reached: a grace turn, whose tool calls are not run, with its own deadline.
    expect(seen()).toEqual({ model: { turn: 2, grace: true }, deadline: { deadline: 11_000 } });
    expect(deadline).toEqual([11_000, 'paused', 12_000, 2_530]);
    actor.send({ type: 'cancel.requested', at: 2_040 });
    expect(seen()).toEqual({});
  });

  it('starts the next call of a turn in a new tool effect, the one before having answered', () => {
    const actor = createActor(subagentMachine, {
      input: { ...input, limits: { ...input.limits, maxTurns: 5 } },
    });
    actor.start();
    actor.send({ type: 'task.started', at: 1_000, deadline: 11_000 });
    actor.send(respondedWith([planCall('a', 'run'), planCall('b', 'run')], 1_010));
    const first = actor.getSnapshot().children.tool;
    actor.send(toolFinished('a', 1_020, 'x'));
    const second = actor.getSnapshot().children.tool;
    expect(second).toBeDefined();
    expect(second).not.toBe(first);
    expect(first?.getSnapshot().status).toBe('stopped');
    expect(actor.getSnapshot().value).toEqual({ running: 'acting' });
  });
});
