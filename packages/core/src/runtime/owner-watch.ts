import type { Clock } from '../clock.js';
import { describeThrown } from '../persistence/plain-json.js';
import type { TaskStore } from '../persistence/types.js';
import type { RuntimeEmitter } from './emitter.js';

/** What the watch of tasks other runtimes run needs from the restorer. */
export interface OwnerWatchHost {
  readonly host: {
    readonly clock: Clock;
    readonly store: TaskStore;
    readonly emitter: RuntimeEmitter;
    /** True once the runtime has shut down. */
    readonly stopped: boolean;
  };
  /** Unfinished tasks the store said another live runtime runs. */
  readonly ownedElsewhere: ReadonlySet<string>;
  /** How often the store is asked again, in ms (0: never). */
  readonly ownerCheckMs: number;
  /** Restores these tasks here (their runtime is gone). */
  restore(options: { taskIds: readonly string[] }): Promise<unknown>;
}

/**
 * @internal The watch of unfinished tasks another live runtime runs: every `ownerCheckMs` the
 * store is asked again, and the tasks whose runtime is gone are restored here. Only a store that
 * several runtimes share reports such tasks, so the restorer loads this module then (a browser's
 * runtime never does).
 */
export class OwnerWatch {
  private check: { handle: unknown } | undefined;

  constructor(private readonly restorer: OwnerWatchHost) {}

  /** Asks the store again in `ownerCheckMs` (an unreferenced timer), unless a check is armed. */
  arm(): void {
    const { clock, store, emitter } = this.restorer.host;
    if (
      this.restorer.host.stopped ||
      this.check ||
      this.restorer.ownedElsewhere.size === 0 ||
      this.restorer.ownerCheckMs === 0
    )
      return;
    const handle = clock.setTimeout(() => {
      this.check = undefined;
      if (this.restorer.host.stopped || this.restorer.ownedElsewhere.size === 0) return;
      const watched = [...this.restorer.ownedElsewhere];
      // A store that can say cheaply who still runs what is asked first; the restore that follows
      // checks again under the lock.
      const check: Promise<unknown> = store.tasksRunElsewhere
        ? store.tasksRunElsewhere(watched).then((still) => {
            const running = new Set(still);
            const gone = watched.filter((id) => !running.has(id));
            if (gone.length) return this.restorer.restore({ taskIds: gone });
            this.arm();
            return undefined;
          })
        : this.restorer.restore({ taskIds: watched });
      check.catch((error: unknown) => {
        if (this.restorer.host.stopped) return;
        emitter.emit('runtime.warning', {
          code: 'PERSISTENCE_FAILED',
          message: `Could not check whether the runtimes running tasks ${[...this.restorer.ownedElsewhere].join(', ')} are gone: ${describeThrown(error)}; checking again in ${this.restorer.ownerCheckMs} ms.`,
        });
        this.arm();
      });
    }, this.restorer.ownerCheckMs);
    // A host that is otherwise done exits: the watch alone never keeps the process up.
    (handle as { unref?: () => void } | undefined)?.unref?.();
    this.check = { handle };
  }

  /** Stops the check armed, if any. */
  stop(): void {
    if (this.check) this.restorer.host.clock.clearTimeout(this.check.handle);
    this.check = undefined;
  }
}
