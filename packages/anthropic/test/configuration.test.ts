import { inspect } from 'node:util';
import { ModelError, ValidationError } from '@troupe/core';
import { serializeError } from '@troupe/core/internal';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createAnthropicModel, DEFAULT_BASE_URL } from '../src/index.js';
import { resolveSettings } from '../src/settings.js';
import { harness, rejectionOf, request, TEST_KEY } from './helpers.js';

afterEach(() => {
  vi.unstubAllEnvs();
});

function creationError(run: () => unknown): any {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('expected createAnthropicModel to throw');
}

describe('configuration', () => {
  it('refuses to start without a key, saying how to set one or run offline', () => {
    const error = creationError(() => createAnthropicModel({ env: {} }));
    expect(error).toBeInstanceOf(ModelError);
    expect(error.code).toBe('MODEL_NOT_CONFIGURED');
    expect(error.message).toContain('ANTHROPIC_API_KEY');
    expect(error.message).toContain('troupe demo');
    expect(error.message).toContain('scriptedModel');
  });

  it('treats blank keys as missing', () => {
    const error = creationError(() => createAnthropicModel({ apiKey: '  ', env: { ANTHROPIC_API_KEY: '' } }));
    expect(error.code).toBe('MODEL_NOT_CONFIGURED');
  });

  it('reads process.env by default, and only the injected env when one is given', () => {
    vi.stubEnv('ANTHROPIC_API_KEY', TEST_KEY);
    expect(createAnthropicModel().name).toBe('anthropic');
    expect(creationError(() => createAnthropicModel({ env: {} })).code).toBe('MODEL_NOT_CONFIGURED');
  });

  it('prefers options over the environment and defaults the base URL', () => {
    const env = { ANTHROPIC_BASE_URL: 'http://env.example:1234/' };
    expect(resolveSettings({}, env).baseURL).toBe('http://env.example:1234');
    expect(resolveSettings({ baseURL: 'https://proxy.example' }, env).baseURL).toBe('https://proxy.example');
    expect(resolveSettings({}, {}).baseURL).toBe(DEFAULT_BASE_URL);
  });

  it.each([
    [{ maxRetries: -1 }, 'maxRetries'],
    [{ maxTokens: 0 }, 'maxTokens'],
    [{ maxRetries: 1.5 }, 'maxRetries'],
    [{ thinking: { budgetTokens: 100 } }, 'thinking.budgetTokens'],
    [{ baseURL: 'ftp://example.com' }, 'baseURL'],
    [{ models: { small: '' } }, 'models.small'],
  ])('names a bad option: %j', (options, field) => {
    const error = creationError(() => createAnthropicModel({ apiKey: TEST_KEY, env: {}, ...options }));
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.message).toContain(field);
  });

  it('keeps the key off the adapter object', () => {
    const model = createAnthropicModel({ apiKey: TEST_KEY, env: {} });
    expect(JSON.stringify(model)).not.toContain(TEST_KEY);
    expect(inspect(model, { depth: 10, showHidden: true })).not.toContain(TEST_KEY);
    expect(Object.keys(model).sort()).toEqual(['generate', 'models', 'name', 'resolveModel']);
    expect(Object.isFrozen(model)).toBe(true);
  });
});

describe('the key never appears in errors', () => {
  const leaks = (error: unknown) =>
    [
      (error as Error).message,
      JSON.stringify(serializeError(error)),
      JSON.stringify(error),
      inspect(error, { depth: 10 }),
    ].filter((text) => text.includes(TEST_KEY));

  it('on a 401 for a wrong key', async () => {
    const { server } = await harness();
    const wrongKey = `${TEST_KEY}-wrong`;
    const model = createAnthropicModel({ apiKey: wrongKey, baseURL: server.url, env: {}, maxRetries: 0 });
    const error = await rejectionOf(model.generate(request(), AbortSignal.timeout(10_000)));
    expect(error.code).toBe('MODEL_AUTH');
    expect(error.status).toBe(401);
    expect(error.message).toContain('invalid x-api-key');
    expect(leaks(error)).toEqual([]);
    expect(inspect(error, { depth: 10 })).not.toContain(wrongKey);
  });

  it('when the server echoes the key in its message', async () => {
    const { server, model } = await harness();
    server.enqueue({
      fault: 'http_error',
      status: 400,
      errorType: 'invalid_request_error',
      message: `bad header value ${TEST_KEY}`,
    });
    const error = await rejectionOf(model.generate(request(), AbortSignal.timeout(10_000)));
    expect(error.message).toContain('bad header value [redacted]');
    expect(error.message).not.toContain(TEST_KEY);
    expect(JSON.stringify(serializeError(error))).not.toContain(TEST_KEY);
  });

  it('when the server echoes the key base64-encoded (as in a Basic header)', async () => {
    const { server, model } = await harness();
    const encoded = Buffer.from(`user:${TEST_KEY}`).toString('base64');
    server.enqueue({
      fault: 'http_error',
      status: 400,
      errorType: 'invalid_request_error',
      message: `bad authorization Basic ${encoded}`,
    });
    const error = await rejectionOf(model.generate(request(), AbortSignal.timeout(10_000)));
    expect(error.message).toContain('bad authorization');
    expect(error.message).not.toContain(encoded);
    expect(error.message).not.toContain(Buffer.from(TEST_KEY).toString('base64').slice(4, 24));
  });

  it('on retries exhausted and on connection failures', async () => {
    const { server, model } = await harness({ maxRetries: 1 });
    server.enqueue({ fault: 'overloaded' }, { fault: 'overloaded' });
    expect(leaks(await rejectionOf(model.generate(request(), AbortSignal.timeout(10_000))))).toEqual([]);
    const url = server.url;
    await server.close();
    const offline = createAnthropicModel({
      apiKey: TEST_KEY,
      baseURL: url,
      env: {},
      maxRetries: 1,
      sleep: async () => {},
    });
    const error = await rejectionOf(offline.generate(request(), AbortSignal.timeout(10_000)));
    expect(error.code).toBe('MODEL_CONNECTION');
    expect(error.message).toContain('ECONNREFUSED');
    // The SDK's "Connection error." and its cause read as one sentence, not "error.: fetch failed".
    expect(error.message).toContain('Connection error: fetch failed');
    expect(error.message).not.toMatch(/\.:/);
    expect(leaks(error)).toEqual([]);
  });
});
