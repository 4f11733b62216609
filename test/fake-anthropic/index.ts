// Public entry of the fake Anthropic server (`@troupe/test/fake-anthropic`).
export { ERROR_STATUS, errorBody } from './api-errors.js';
export { type FakeHandlerModule, loadHandlerFile } from './handler-file.js';
export { type ApiContentBlock, type ApiMessage, buildMessage } from './message.js';
export {
  type Boundary,
  type CacheUsage,
  estimateTokens,
  inputCost,
  minimumCacheableTokens,
  PromptCache,
  type PromptCacheOptions,
  prefixBoundaries,
} from './prompt-cache.js';
export { type FakeScriptFile, parseScriptFile } from './script-file.js';
export {
  isMainAgent,
  lastUserText,
  systemOf,
  textStep,
  toolNamesOf,
  toolResultsOf,
  toolStep,
} from './script-helpers.js';
export { startFakeAnthropic } from './server.js';
export { errorEvent, formatEvent, messageEvents, type StreamEvent } from './sse.js';
export type {
  ApiUsage,
  FakeAnthropicOptions,
  FakeAnthropicServer,
  FakeContentBlock,
  FakeFault,
  FakeHandler,
  FakeReply,
  FakeStep,
  FakeStopReason,
  FakeUsage,
  RecordedRequest,
  RequestOutcome,
} from './types.js';
export { validateMessagesRequest } from './validate.js';
export { FAKE_API_KEY, type FakeAnthropicModel, startFakeAnthropicModel } from './with-model.js';
