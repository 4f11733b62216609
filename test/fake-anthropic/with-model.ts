import { type AnthropicModel, type AnthropicModelOptions, createAnthropicModel } from '@troupe/anthropic';
import { startFakeAnthropic } from './server.js';
import type { FakeAnthropicOptions, FakeAnthropicServer } from './types.js';

/** A fake server and an `@troupe/anthropic` adapter wired to it. */
export interface FakeAnthropicModel {
  server: FakeAnthropicServer;
  model: AnthropicModel;
  /** Every backoff delay the adapter asked for (its sleep is instant). */
  delays: number[];
  /** Closes the server (rejects with `strict` when a request was invalid). */
  close(): Promise<void>;
}

/** The key the paired fake and adapter share. */
export const FAKE_API_KEY = 'sk-ant-fake-0000';

/**
 * Starts a strict fake (unless `fake.strict` is false) and an adapter pointed at it, for
 * end-to-end tests (`createRuntime({ model })`). The adapter reads no environment, never waits
 * on real time between retries (it records the delays instead), and uses the fake's key.
 */
export async function startFakeAnthropicModel(
  fake: FakeAnthropicOptions = {},
  adapter: AnthropicModelOptions = {},
): Promise<FakeAnthropicModel> {
  const server = await startFakeAnthropic({ apiKey: FAKE_API_KEY, strict: true, ...fake });
  const delays: number[] = [];
  const model = createAnthropicModel({
    apiKey: FAKE_API_KEY,
    baseURL: server.url,
    env: {},
    random: () => 0,
    sleep: async (ms) => {
      delays.push(ms);
    },
    ...adapter,
  });
  return { server, model, delays, close: () => server.close() };
}
