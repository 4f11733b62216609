import type { Clock } from '../clock.js';
import type { RuntimeEvents } from '../events.js';
import type { Message } from '../model/types.js';
import type { TaskResult, TaskStore, TeamLink } from '../persistence/types.js';
import type { AgentCatalog } from '../runtime/agent-catalog.js';
import type { RuntimeLimits } from '../runtime/runtime-limits.js';
import type { SpawnOptions } from '../runtime/spawn-options.js';
import type { TaskHandle } from '../runtime/task-handle.js';

/** What a team needs from the runtime: spells are tasks, messages to working members are steering. */
export interface TeamRuntime {
  readonly store: TaskStore;
  readonly clock: Clock;
  readonly limits: RuntimeLimits;
  readonly agents: AgentCatalog;
  spawnInternal(
    options: SpawnOptions & { history?: Message[]; team?: TeamLink; taskId?: string },
  ): TaskHandle;
  steer(id: string, text: string): void;
  cancel(id: string, reason?: string): boolean;
  result(id: string): Promise<TaskResult | undefined>;
  /** The status of a task this runtime runs and that has not ended, or undefined. */
  liveStatus(id: string): string | undefined;
  /**
   * Tells the team's host of a `runtime.warning` (a store write that failed: the team goes on) or a
   * `team.event`; the host decides who hears it (a runtime's listeners, a cluster's clients).
   */
  report<TName extends 'runtime.warning' | 'team.event'>(name: TName, event: RuntimeEvents[TName]): void;
}
