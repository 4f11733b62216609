import type { ModelRequest } from '@troupe/core';
import { afterEach } from 'vitest';
import {
  type FakeAnthropicOptions,
  type FakeAnthropicServer,
  startFakeAnthropicModel,
} from '../../../test/fake-anthropic/index.js';
import type { AnthropicModel } from '../src/index.js';
import type { AnthropicModelOptions } from '../src/options.js';

/** The key the fake expects in these tests. */
export const TEST_KEY = 'sk-ant-test-0123456789abcdef';

const servers: FakeAnthropicServer[] = [];

// Every fake is strict: a request our adapter built wrongly fails the test at close.
afterEach(async () => {
  const open = servers.splice(0);
  for (const server of open) await server.close();
});

/** What the injected sleep was asked to wait, in order. */
export interface Harness {
  server: FakeAnthropicServer;
  model: AnthropicModel;
  delays: number[];
}

/** A strict fake server and an adapter pointed at it, with an instant, recording sleep. */
export async function harness(
  adapter: AnthropicModelOptions = {},
  fake: FakeAnthropicOptions = {},
): Promise<Harness> {
  const { server, model, delays } = await startFakeAnthropicModel(
    { apiKey: TEST_KEY, ...fake },
    { apiKey: TEST_KEY, ...adapter },
  );
  servers.push(server);
  return { server, model, delays };
}

/** A minimal valid request; override any field. */
export function request(overrides: Partial<ModelRequest> = {}): ModelRequest {
  return {
    model: 'claude-test-1',
    system: 'You are a careful test agent.',
    messages: [{ role: 'user', content: 'Say hello.' }],
    tools: [],
    maxTokens: 1024,
    ...overrides,
  };
}

/** The rejection of a promise (fails when it resolves). */
export async function rejectionOf(promise: Promise<unknown>): Promise<any> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the promise to reject, but it resolved');
}
