import { EventEmitter } from 'eventemitter3';
import type { RuntimeEventName, RuntimeEvents } from '../events.js';

/** The runtime's typed event emitter (eventemitter3). */
export class RuntimeEmitter {
  private readonly emitter = new EventEmitter();

  on<TName extends RuntimeEventName>(
    name: TName,
    listener: (event: RuntimeEvents[TName]) => void,
  ): () => void {
    this.emitter.on(name, listener);
    return () => {
      this.emitter.off(name, listener);
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
}
