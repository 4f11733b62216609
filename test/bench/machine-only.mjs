// The XState floor under troupe's turn: the subagent machine alone, as an actor, fed the events a
// task of this workload journals (start, then per turn `model.responded` and `tool.finished`), with
// no runtime, driver, store, events or effects; and the same under the supervisor (queue, spawn,
// stop: troupe's actor system without its runtime). Used by measure.mjs.
import { subagentMachine, supervisorMachine } from '@troupe/core/internal';
import { createActor, createMachine } from 'xstate';

const usage = { input: 100, output: 20 };
const limits = { maxTurns: 6, tokenBudget: 1_000_000, timeoutMs: 300_000 };

/** The events one task of the workload journals. */
function eventsOf(task, turns) {
  const events = [{ type: 'task.started', at: 1, deadline: 300_001 }];
  for (let turn = 1; turn <= turns; turn++) {
    if (turn < turns) {
      const id = `toolu_${task}_${turn}`;
      events.push({
        type: 'model.responded',
        at: 2,
        turn,
        response: {
          content: [{ type: 'tool_use', id, name: 'lookup', input: { key: `k${turn}` } }],
          stopReason: 'tool_use',
          usage,
          model: 'bench',
        },
        plan: [{ toolUseId: id, name: 'lookup', disposition: 'run', access: 'read' }],
      });
      events.push({
        type: 'tool.finished',
        at: 3,
        toolUseId: id,
        result: { type: 'tool_result', tool_use_id: id, content: `value of k${turn}` },
      });
    } else
      events.push({
        type: 'model.responded',
        at: 4,
        turn,
        response: {
          content: [{ type: 'text', text: 'done' }],
          stopReason: 'end_turn',
          usage,
          model: 'bench',
        },
        plan: [],
      });
  }
  return events;
}

const inputOf = (task) => ({
  taskId: `t${task}`,
  agent: 'worker',
  model: 'bench',
  messages: [{ role: 'user', content: `task ${task}` }],
  limits,
  graceMs: 30_000,
  hasOutputSchema: false,
});

/** A state node's config with no `invoke`, its children's neither. */
function withoutInvokes(node) {
  const { invoke: _invoke, ...rest } = node;
  if (rest.states)
    rest.states = Object.fromEntries(
      Object.entries(rest.states).map(([key, child]) => [key, withoutInvokes(child)]),
    );
  return rest;
}

/**
 * The subagent machine with the same states, transitions, guards and actions but no invoked effect
 * actors: what the machine's turn costs in XState when effects are not actors (the deadline is
 * only commanded on approval and grace turns, which this workload has none of).
 */
const machineWithoutEffects = createMachine(
  withoutInvokes(subagentMachine.config),
  subagentMachine.implementations,
);

/**
 * Runs `tasks` subagent actors one after another; resolves with the elapsed ms. With
 * `{ effects: false }`, the machine without its invoked effect actors.
 */
export async function runMachineOnly(tasks, turns, { effects = true } = {}) {
  const logic = effects ? subagentMachine : machineWithoutEffects;
  const started = performance.now();
  for (let task = 0; task < tasks; task++) {
    const actor = createActor(logic, { input: inputOf(task) });
    actor.start();
    for (const event of eventsOf(task, turns)) actor.send(event);
    if (actor.getSnapshot().status !== 'done') throw new Error('bench: the machine did not finish');
  }
  return performance.now() - started;
}

/**
 * Runs `tasks` through troupe's supervisor machine, 5 at a time: each task's actor is spawned by
 * the supervisor, fed its events (in a microtask, as effects would) and stopped when done, and the
 * next one started. Resolves with the elapsed ms.
 */
export async function runSupervisedOnly(tasks, turns) {
  let done = 0;
  let finish;
  const all = new Promise((resolve) => {
    finish = resolve;
  });
  const machine = supervisorMachine.provide({
    actions: {
      taskStarted: ({ system }, { taskId }) => {
        const actor = system.get(taskId);
        queueMicrotask(() => {
          actor.start();
          for (const event of eventsOf(taskId, turns)) actor.send(event);
          if (actor.getSnapshot().status !== 'done') throw new Error('bench: the machine did not finish');
          if (++done === tasks) finish();
        });
      },
    },
  });
  const supervisor = createActor(machine, { input: { maxConcurrent: 5 } });
  supervisor.start();
  const started = performance.now();
  for (let task = 0; task < tasks; task++)
    supervisor.send({
      type: 'task.submitted',
      task: { taskId: `t${task}`, sessionKey: 's', input: inputOf(task) },
    });
  await all;
  const elapsed = performance.now() - started;
  supervisor.stop();
  return elapsed;
}
