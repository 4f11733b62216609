// Stands in for `@opentelemetry/api` in the app's bundle (see vite.config.ts). The Anthropic SDK
// traces its calls through it, but a page registers no OpenTelemetry SDK, so every call would
// reach the API's no-op implementation anyway: this is that no-op, without the registry behind
// it. Spans do not record and carry an invalid context, so the SDK treats tracing as off.

type Callback = (...args: unknown[]) => unknown;

const ROOT_CONTEXT = Object.freeze({});
const INVALID_SPAN_CONTEXT = Object.freeze({
  traceId: '00000000000000000000000000000000',
  spanId: '0000000000000000',
  traceFlags: 0,
});

const span = {
  spanContext: () => INVALID_SPAN_CONTEXT,
  isRecording: () => false,
  setAttribute: () => span,
  setAttributes: () => span,
  addEvent: () => span,
  addLink: () => span,
  addLinks: () => span,
  setStatus: () => span,
  updateName: () => span,
  recordException: () => {},
  end: () => {},
};

const tracer = {
  startSpan: () => span,
  startActiveSpan: (...args: unknown[]) => (args.at(-1) as Callback)(span),
};

/** No-op tracing: every tracer gives spans that record nothing. */
export const trace = {
  getTracerProvider: () => ({ getTracer: () => tracer }),
  getTracer: () => tracer,
  isSpanContextValid: () => false,
  setSpan: (context: object) => context,
  getSpan: () => undefined,
  getActiveSpan: () => undefined,
  wrapSpanContext: () => span,
};

/** No-op context: always the root context; `with` just calls the function. */
export const context = {
  active: () => ROOT_CONTEXT,
  with: (_context: object, fn: Callback, thisArg?: unknown, ...args: unknown[]) => fn.apply(thisArg, args),
  bind: (_context: object, target: unknown) => target,
};

/** No-op propagation: writes no headers, names none. */
export const propagation = {
  inject: () => {},
  extract: (context: object) => context,
  fields: (): string[] => [],
};

/** The API's enum values, as numbers like the real package. */
export const SpanKind = { INTERNAL: 0, SERVER: 1, CLIENT: 2, PRODUCER: 3, CONSUMER: 4 } as const;
export const SpanStatusCode = { UNSET: 0, OK: 1, ERROR: 2 } as const;
