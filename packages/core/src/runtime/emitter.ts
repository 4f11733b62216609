import { EventEmitter } from 'eventemitter3';
import type { RuntimeEventName, RuntimeEvents } from '../events.js';
import { describeThrown } from '../persistence/plain-json.js';

/** True for a promise (or anything with a `then` method) a listener returned. */
export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    (typeof value === 'object' || typeof value === 'function') &&
    value !== null &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}

/**
 * The runtime's typed event emitter (eventemitter3). A listener is the host's code: one that
 * throws (or, async, rejects) is reported as a `runtime.warning` (`LISTENER_FAILED`) and the other listeners still
 * run; it never throws into the task or the actor that emitted the event.
 */
export class RuntimeEmitter {
  private readonly emitter = new EventEmitter();

  on<TName extends RuntimeEventName>(
    name: TName,
    listener: (event: RuntimeEvents[TName]) => void,
  ): () => void {
    const guarded = (event: RuntimeEvents[TName]) => {
      try {
        const returned: unknown = listener(event);
        // An async listener's rejection would be unhandled (and end the process): report it too.
        if (isThenable(returned))
          returned.then(undefined, (error: unknown) => this.listenerFailed(name, event, error));
      } catch (error) {
        this.listenerFailed(name, event, error);
      }
    };
    this.emitter.on(name, guarded);
    return () => {
      this.emitter.off(name, guarded);
    };
  }

  /** True when someone listens (so callers can skip building an event nobody reads). */
  listening(name: RuntimeEventName): boolean {
    return this.emitter.listenerCount(name) > 0;
  }

  emit<TName extends RuntimeEventName>(name: TName, event: RuntimeEvents[TName]): void {
    this.emitter.emit(name, event);
  }

  removeAll(): void {
    this.emitter.removeAllListeners();
  }

  /** Reports a listener that threw; a throwing `runtime.warning` listener is not reported to itself. */
  private listenerFailed(name: RuntimeEventName, event: unknown, error: unknown): void {
    if (name === 'runtime.warning') return;
    const taskId = (event as { taskId?: unknown } | null)?.taskId;
    this.emit('runtime.warning', {
      code: 'LISTENER_FAILED',
      message: `A ${name} listener threw: ${describeThrown(error)}. The runtime carried on; fix the listener.`,
      ...(typeof taskId === 'string' ? { taskId } : {}),
    });
  }
}
