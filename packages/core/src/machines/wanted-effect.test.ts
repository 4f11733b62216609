import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import type { SubagentEvent, ToolCallPlan } from './subagent-events.js';
import { type SubagentInput, subagentMachine } from './subagent-machine.js';
import { armedDeadline, wantedEffect } from './wanted-effect.js';

const input: SubagentInput = {
  taskId: 't1',
  agent: 'writer',
  model: 'model-x',
  messages: [{ role: 'user', content: 'Write two notes' }],
  limits: { maxTurns: 1, tokenBudget: 1_000, timeoutMs: 10_000 },
  graceMs: 500,
  hasOutputSchema: false,
};
const plan: ToolCallPlan[] = [
  { toolUseId: 'r1', name: 'read', access: 'read', disposition: 'run' },
  {
    toolUseId: 'bad',
    name: 'nope',
    disposition: 'rejected',
    result: { type: 'tool_result', tool_use_id: 'bad', content: 'no', is_error: true },
  },
  { toolUseId: 'w1', name: 'write', access: 'write', disposition: 'approval' },
];
const responded: SubagentEvent = {
  type: 'model.responded',
  at: 1_010,
  turn: 1,
  response: {
    content: plan.map((call) => ({
      type: 'tool_use' as const,
      id: call.toolUseId,
      name: call.name,
      input: {},
    })),
    usage: { input: 10, output: 10 },
  },
  plan,
};

describe('the effect a subagent state declares', () => {
  it('names the model call, each runnable call, the approval, then the grace turn; the deadline pauses in approval', () => {
    const actor = createActor(subagentMachine, { input }).start();
    const seen = () => {
      const snapshot = actor.getSnapshot();
      const wanted = wantedEffect(snapshot);
      return [wanted?.key, armedDeadline(snapshot)];
    };
    expect(seen()).toEqual([undefined, undefined]);
    actor.send({ type: 'task.started', at: 1_000, deadline: 11_000 });
    expect(seen()).toEqual(['thinking:1', 11_000]);
    expect(wantedEffect(actor.getSnapshot())).toMatchObject({ kind: 'model', turn: 1, grace: false });
    actor.send(responded);
    expect(seen()).toEqual(['tool:r1', 11_000]);
    actor.send({
      type: 'tool.finished',
      at: 1_020,
      toolUseId: 'r1',
      result: { type: 'tool_result', tool_use_id: 'r1', content: 'x' },
    });
    // The rejected call is answered by the machine itself; the write call waits for a decision.
    expect(seen()).toEqual(['approval:w1', undefined]);
    actor.send({ type: 'approval.granted', at: 2_020, toolUseId: 'w1' });
    // A second spent in approval moved the deadline by a second.
    expect(seen()).toEqual(['tool:w1', 12_000]);
    actor.send({
      type: 'tool.finished',
      at: 2_030,
      toolUseId: 'w1',
      result: { type: 'tool_result', tool_use_id: 'w1', content: 'ok' },
    });
    // maxTurns 1 reached: a grace turn, whose tool calls are not run.
    expect(wantedEffect(actor.getSnapshot())).toMatchObject({ kind: 'model', key: 'grace:2', grace: true });
    actor.send({ type: 'cancel.requested', at: 2_040 });
    expect(seen()).toEqual([undefined, undefined]);
  });
});
