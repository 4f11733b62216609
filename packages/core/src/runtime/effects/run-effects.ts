import type { TaskEventBase } from '../../events.js';
import { describeThrown } from '../../persistence/plain-json.js';
import type { TaskSpec } from '../../persistence/types.js';
import type { ToolRegistry } from '../../tools/tool-registry.js';
import type { RunHost } from '../run-host.js';
import { type EffectIO, effectIO } from './effect-io.js';
import { guardedController } from './guarded-signal.js';
import { ToolCalls } from './tool-calls.js';

/**
 * The controller every released run's effects hold instead of their own (already aborted, so a
 * late effect's signal is aborted too): a run's own controller guards its listeners with a map of
 * its own, ~3 KB a task, not kept for as long as the table holds the run.
 */
const RELEASED = new AbortController();
RELEASED.abort();

/**
 * What one task's effects hold while it runs: its tools (asked of its host's tooling at their
 * first use, unless a main agent's run brought them), its effect IO, its tool calls and the abort
 * controller of the effects in flight. Each is made at its first use, so a queued task holds none,
 * and let go when the task ends ({@link RunEffects.release}).
 */
export class RunEffects {
  private effectIO: EffectIO | undefined;
  private toolCalls: ToolCalls | undefined;
  private controller: AbortController | undefined;

  constructor(
    private readonly host: RunHost,
    private readonly spec: TaskSpec,
    /** The task's run: its events' fields as of now. */
    private readonly run: { base(): TaskEventBase },
    private registry: ToolRegistry | undefined,
  ) {}

  /** What the task's effects reach it through (its host, spec, tools, tool inputs, events). */
  get io(): EffectIO {
    this.effectIO ??= effectIO(
      this.host,
      this.spec,
      () => {
        this.registry ??= this.host.tooling.registryFor(this.spec);
        return this.registry;
      },
      () => this.run.base(),
    );
    return this.effectIO;
  }

  /** The task's tool calls (read calls started early, each call once). */
  get tools(): ToolCalls {
    this.toolCalls ??= new ToolCalls(this.io);
    return this.toolCalls;
  }

  /** The signal of the effects in flight (an abort listener that throws is a `LISTENER_FAILED` warning). */
  get signal(): AbortSignal {
    this.controller ??= guardedController((error) =>
      this.io.warn(
        'LISTENER_FAILED',
        `An abort listener in task ${this.spec.taskId} threw: ${describeThrown(error)}. The task went on; fix the tool or the model adapter.`,
      ),
    );
    return this.controller.signal;
  }

  /** Aborts the effects in flight; the next ones get a fresh signal (made when they ask for it). */
  abort(): void {
    this.controller?.abort();
    this.controller = undefined;
    this.toolCalls?.reset();
  }

  /**
   * Lets go of everything (the task ended, or the runtime let it go): a late effect's signal is
   * aborted; `abort` first aborts the effects in flight.
   */
  release(options: { abort?: boolean } = {}): void {
    if (options.abort) this.controller?.abort();
    this.controller = RELEASED;
    this.registry = undefined;
    this.effectIO = undefined;
    this.toolCalls = undefined;
  }
}
