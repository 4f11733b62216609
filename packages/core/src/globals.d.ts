// @troupe/core runs unchanged in Node and in browsers, so it compiles against neither Node's nor
// the DOM's types. These are the few web-standard globals both platforms provide that core uses.
declare global {
  interface AbortSignal {
    readonly aborted: boolean;
    readonly reason: unknown;
    addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void;
    removeEventListener(type: 'abort', listener: () => void): void;
    throwIfAborted(): void;
  }
  var AbortSignal: {
    prototype: AbortSignal;
    abort(reason?: unknown): AbortSignal;
    any(signals: AbortSignal[]): AbortSignal;
  };
  interface AbortController {
    readonly signal: AbortSignal;
    abort(reason?: unknown): void;
  }
  var AbortController: { prototype: AbortController; new (): AbortController };
  function setTimeout(callback: () => void, ms?: number): unknown;
  function clearTimeout(handle: unknown): void;
  function queueMicrotask(callback: () => void): void;
  function structuredClone<T>(value: T): T;
  var crypto: { getRandomValues<T extends Uint32Array>(array: T): T };
  var console: {
    log(...data: unknown[]): void;
    warn(...data: unknown[]): void;
    error(...data: unknown[]): void;
  };
}

export {};
