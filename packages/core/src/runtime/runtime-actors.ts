import { type Actor, createActor } from 'xstate';
import { sessionMachine } from '../machines/session-machine.js';
import { type SubagentMachine, subagentMachine } from '../machines/subagent-machine.js';
import { type SupervisorMachine, supervisorMachine } from '../machines/supervisor-machine.js';
import { createEffectActors } from './effects/effect-actors.js';
import type { RuntimeLimits } from './runtime-limits.js';
import type { RuntimeOptions } from './runtime-options.js';
import type { SubagentRef } from './subagent-snapshot.js';
import { runOfActor, supervisorHooks } from './task-run.js';
import type { TaskTable } from './task-table.js';

/** The runtime's root actor: the supervisor, with tasks and sessions as its descendants. */
export type SupervisorActor = Actor<SupervisorMachine>;

/** The parts of a runtime its actor system reports to (read as events come, not when it starts). */
export interface ActorSystemParts {
  readonly limits: Pick<RuntimeLimits, 'maxConcurrent'>;
  readonly options: Pick<RuntimeOptions, 'inspect'>;
  /** The tasks' runs: launched when the supervisor spawns their actor, dropped when it drops them. */
  readonly table: TaskTable;
  /** Starts a main-agent run when a session's actor spawns it. */
  readonly sessions: { runStarted(sessionActorId: string, runId: string, actor: SubagentRef): void };
}

/**
 * @internal Starts the runtime's one actor system: the supervisor at its root, tasks and sessions
 * (with their main-agent runs) its descendants, so one `inspect` observer sees every actor. The
 * subagent machine (tasks' and main agents' alike) is given its effects performed for real; it is
 * returned with the supervisor, for restored and forked tasks' logic.
 */
export function startActorSystem(parts: ActorSystemParts): {
  supervisor: SupervisorActor;
  subagent: SubagentMachine;
} {
  const subagent = subagentMachine.provide({
    actors: createEffectActors(runOfActor),
  });
  const machine = supervisorMachine.provide({
    actions: supervisorHooks(parts.table),
    actors: {
      subagent,
      session: sessionMachine.provide({
        actors: { mainAgent: subagent },
        actions: {
          runStarted: ({ system, self }, { runId }) => {
            const actor: SubagentRef | undefined = system.get(`${self.id}/${runId}`);
            if (actor) parts.sessions.runStarted(self.id, runId, actor);
          },
        },
      }),
    },
  });
  const supervisor = createActor(machine, {
    id: 'supervisor',
    systemId: 'supervisor',
    input: { maxConcurrent: parts.limits.maxConcurrent },
    ...(parts.options.inspect ? { inspect: parts.options.inspect } : {}),
  });
  supervisor.start();
  return { supervisor, subagent };
}
