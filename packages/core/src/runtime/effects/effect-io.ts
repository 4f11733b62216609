import type { RuntimeWarning, TaskEventBase } from '../../events.js';
import type { TaskSpec } from '../../persistence/types.js';
import type { ToolRegistry } from '../../tools/tool-registry.js';
import type { RunHost } from '../run-host.js';

/** What an effect of one task works with: its runtime, its spec and tools, its event fields. */
export interface EffectIO {
  readonly host: RunHost;
  readonly spec: TaskSpec;
  readonly registry: ToolRegistry;
  /** Tool inputs validated when the response arrived, by tool_use id (taken when the call runs). */
  readonly inputs: Map<string, unknown>;
  /** An event about the task: the common fields plus `extra`. */
  event<T extends object>(extra: T): TaskEventBase & T;
  /** Emits `runtime.warning` about the task. */
  warn(code: RuntimeWarning['code'], message: string): void;
}

/**
 * The IO of one task's effects: its tools are asked for (`registry`) at their first use, and its
 * events carry `base()`'s fields as of when they are made.
 */
export function effectIO(
  host: RunHost,
  spec: TaskSpec,
  registry: () => ToolRegistry,
  base: () => TaskEventBase,
): EffectIO {
  return {
    host,
    spec,
    get registry() {
      return registry();
    },
    inputs: new Map(),
    event: (extra) => Object.assign(base(), extra),
    warn: (code, message) => host.emitter.emit('runtime.warning', { code, message, taskId: spec.taskId }),
  };
}
