/** A DOM-style listener (core compiles against neither Node's nor the DOM's types). */
type Listener = ((this: unknown, event: unknown) => unknown) | { handleEvent(event: unknown): unknown };

interface ListenerTarget {
  addEventListener(type: string, listener: unknown, options?: unknown): void;
  removeEventListener(type: string, listener: unknown, options?: unknown): void;
}

/**
 * A controller whose signal runs each listener inside a try: an `abort` listener that a tool or a
 * model adapter added (or an `onabort` handler) and that throws is reported to `failed` instead of
 * becoming an uncaught exception (Node rethrows an EventTarget listener's error on the next tick,
 * which ends the process). The signal is still a real `AbortSignal` (`fetch` and
 * `AbortSignal.any` take it); listeners of signals derived from it are not covered.
 */
export function guardedController(failed: (error: unknown) => void): AbortController {
  const controller = new AbortController();
  const target = controller.signal as unknown as ListenerTarget;
  const wrapped = new WeakMap<object, (event: unknown) => void>();
  const guard = (listener: Listener) => {
    let guarded = wrapped.get(listener);
    if (!guarded) {
      guarded = function (this: unknown, event: unknown) {
        try {
          if (typeof listener === 'function') listener.call(this, event);
          else listener.handleEvent(event);
        } catch (error) {
          failed(error);
        }
      };
      wrapped.set(listener, guarded);
    }
    return guarded;
  };
  const listenerOf = (value: unknown): Listener | undefined =>
    typeof value === 'function' ||
    (typeof value === 'object' &&
      value !== null &&
      typeof (value as { handleEvent?: unknown }).handleEvent === 'function')
      ? (value as Listener)
      : undefined;
  const add = target.addEventListener.bind(target);
  const remove = target.removeEventListener.bind(target);
  let onabort: Listener | undefined;
  Object.defineProperties(target, {
    addEventListener: {
      value: (type: string, listener: unknown, options?: unknown) => {
        const given = listenerOf(listener);
        add(type, given ? guard(given) : listener, options);
      },
    },
    removeEventListener: {
      value: (type: string, listener: unknown, options?: unknown) => {
        const given = listenerOf(listener);
        remove(type, given ? (wrapped.get(given) ?? listener) : listener, options);
      },
    },
    onabort: {
      get: () => onabort ?? null,
      set: (handler: unknown) => {
        if (onabort) remove('abort', guard(onabort));
        onabort = typeof handler === 'function' ? (handler as Listener) : undefined;
        if (onabort) add('abort', guard(onabort));
      },
    },
  });
  return controller;
}
