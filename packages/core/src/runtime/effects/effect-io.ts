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
