import { afterEach, describe, expect, it } from 'vitest';
import { PromptCache } from './prompt-cache.js';
import { startFakeAnthropic } from './server.js';
import type { FakeAnthropicOptions, FakeAnthropicServer } from './types.js';

const KEY = 'sk-fake-key';
const open: FakeAnthropicServer[] = [];

afterEach(async () => {
  for (const server of open.splice(0)) await server.close().catch(() => {});
});

async function start(options: FakeAnthropicOptions = {}): Promise<FakeAnthropicServer> {
  const server = await startFakeAnthropic({ apiKey: KEY, ...options });
  open.push(server);
  return server;
}

const json = (response: Response): Promise<any> => response.json();

const valid = { model: 'claude-x', max_tokens: 50, messages: [{ role: 'user', content: 'hi' }] };

function post(
  server: FakeAnthropicServer,
  body: unknown,
  headers: Record<string, string> = {},
  signal?: AbortSignal,
) {
  return fetch(`${server.url}/v1/messages`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'anthropic-version': '2023-06-01',
      'x-api-key': KEY,
      ...headers,
    },
    body: JSON.stringify(body),
    ...(signal ? { signal } : {}),
  });
}

function eventNames(sse: string): string[] {
  return [...sse.matchAll(/^event: (\S+)$/gm)].map((match) => match[1]!);
}

describe('fake Anthropic server', () => {
  it('answers a non-streaming request with a Message and a request-id', async () => {
    const server = await start({
      script: [{ content: [{ type: 'text', text: 'hello' }], usage: { input: 3, output: 2 } }],
    });
    const response = await post(server, valid);
    expect(response.status).toBe(200);
    expect(response.headers.get('request-id')).toBe('req_fake_0000');
    expect(await json(response)).toMatchObject({
      id: 'msg_fake_0001',
      type: 'message',
      role: 'assistant',
      model: 'claude-x',
      content: [{ type: 'text', text: 'hello' }],
      stop_reason: 'end_turn',
      usage: {
        input_tokens: 3,
        output_tokens: 2,
        cache_read_input_tokens: 0,
        cache_creation_input_tokens: 0,
      },
    });
    expect(server.requests[0]).toMatchObject({
      auth: 'x-api-key',
      action: 'reply',
      status: 200,
      stream: false,
    });
    expect(server.requests[0]?.headers['x-api-key']).toBe('[redacted]');
  });

  it('streams the events the API sends, in order', async () => {
    const server = await start({
      chunkSize: 5,
      script: [
        {
          content: [
            { type: 'text', text: 'abcdefg' },
            { type: 'tool_use', id: 'toolu_1', name: 'echo', input: { a: 1 } },
          ],
        },
      ],
    });
    const response = await post(server, { ...valid, stream: true });
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    expect(eventNames(await response.text())).toEqual([
      'message_start',
      'content_block_start',
      'ping',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'content_block_start',
      'content_block_delta',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
  });

  it.each([
    ['no credential', { 'x-api-key': '' }, 'x-api-key header is required'],
    ['a wrong key', { 'x-api-key': 'nope' }, 'invalid x-api-key'],
  ])('answers 401 with the API error shape for %s', async (_name, headers, message) => {
    const server = await start({ script: [{ content: [{ type: 'text', text: 'x' }] }] });
    const response = await post(server, valid, headers);
    expect(response.status).toBe(401);
    expect(await json(response)).toEqual({
      type: 'error',
      error: { type: 'authentication_error', message },
      request_id: 'req_fake_0000',
    });
    expect(server.pending).toBe(1);
  });

  it('accepts a bearer credential, and any credential when no key is configured', async () => {
    const server = await start({ handler: () => ({ content: [{ type: 'text', text: 'ok' }] }) });
    expect((await post(server, valid, { 'x-api-key': '', authorization: `Bearer ${KEY}` })).status).toBe(200);
    const keyless = await startFakeAnthropic({
      handler: () => ({ content: [{ type: 'text', text: 'ok' }] }),
    });
    open.push(keyless);
    expect((await post(keyless, valid, { 'x-api-key': 'anything' })).status).toBe(200);
  });

  it('speaks CORS like the API when asked: preflight, allowed origin, and a 401 for a page that did not opt in', async () => {
    const origin = 'http://127.0.0.1:4173';
    const server = await start({
      cors: origin,
      handler: () => ({ content: [{ type: 'text', text: 'ok' }] }),
    });
    const preflight = await fetch(`${server.url}/v1/messages`, {
      method: 'OPTIONS',
      headers: {
        origin,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'x-api-key',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe(origin);
    expect(preflight.headers.get('access-control-allow-headers')).toBe('x-api-key');
    const refused = await post(server, valid, { origin });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('access-control-allow-origin')).toBe(origin);
    expect((await json(refused)).error.message).toMatch(/anthropic-dangerous-direct-browser-access/);
    const allowed = await post(server, valid, {
      origin,
      'anthropic-dangerous-direct-browser-access': 'true',
    });
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get('access-control-allow-origin')).toBe(origin);
    // Without the option, or from a server (no Origin), nothing changes.
    expect((await post(server, valid)).headers.get('access-control-allow-origin')).toBeNull();
    expect(server.requests).toHaveLength(3);
  });

  it('rejects an invalid request with 400, records it, and fails a strict close', async () => {
    const server = await startFakeAnthropic({ strict: true });
    const response = await post(server, { ...valid, messages: [{ role: 'assistant', content: 'x' }] });
    expect(response.status).toBe(400);
    const body = await json(response);
    expect(body.error.type).toBe('invalid_request_error');
    expect(body.error.message).toContain('first message must use the "user" role');
    expect(server.validationErrors).toEqual([
      'request 0: messages.0.role: first message must use the "user" role',
    ]);
    expect(() => server.assertValid()).toThrow(/1 invalid or unscripted request/);
    await expect(server.close()).rejects.toThrow('first message must use the "user" role');
  });

  it('requires anthropic-version and JSON, and serves only POST /v1/messages', async () => {
    const server = await start();
    expect((await post(server, valid, { 'anthropic-version': '' })).status).toBe(400);
    const notJson = await fetch(`${server.url}/v1/messages`, {
      method: 'POST',
      headers: { 'anthropic-version': '2023-06-01', 'x-api-key': KEY },
      body: '{',
    });
    expect(notJson.status).toBe(400);
    expect((await fetch(`${server.url}/v1/models`)).status).toBe(404);
    expect(server.validationErrors).toHaveLength(3);
  });

  it('answers an unscripted request with a 400 naming it, and fails a strict close', async () => {
    const server = await startFakeAnthropic({ strict: true });
    const response = await post(server, valid);
    expect(response.status).toBe(400);
    expect((await json(response)).error.message).toContain('no scripted response for request 0');
    await expect(server.close()).rejects.toThrow('no scripted response');
  });

  it('answers from the queue first, then asks the handler with the recorded request', async () => {
    const seen: unknown[] = [];
    const server = await start({
      script: [{ content: [{ type: 'text', text: 'queued' }] }],
      handler: (request) => {
        seen.push(request.body.messages[0].content);
        return { content: [{ type: 'text', text: 'handled' }], model: 'claude-y' };
      },
    });
    const first = await json(await post(server, valid));
    const second = await json(await post(server, valid));
    expect([first.content[0].text, second.content[0].text, second.model]).toEqual([
      'queued',
      'handled',
      'claude-y',
    ]);
    expect(seen).toEqual(['hi']);
  });

  it('injects HTTP faults with realistic headers', async () => {
    const server = await start({
      script: [
        { fault: 'rate_limited', retryAfter: 4, retryAfterMs: 3500 },
        { fault: 'overloaded' },
        { fault: 'server_error', status: 502 },
        { fault: 'stream_error', errorType: 'api_error' },
      ],
    });
    const limited = await post(server, valid);
    expect([
      limited.status,
      limited.headers.get('retry-after'),
      limited.headers.get('retry-after-ms'),
    ]).toEqual([429, '4', '3500']);
    expect(limited.headers.get('x-should-retry')).toBe('true');
    expect((await json(limited)).error.type).toBe('rate_limit_error');
    const overloaded = await post(server, valid);
    expect([overloaded.status, (await json(overloaded)).error.type]).toEqual([529, 'overloaded_error']);
    const bad = await post(server, valid);
    expect([bad.status, (await json(bad)).error.type]).toEqual([502, 'api_error']);
    expect((await post(server, valid)).status).toBe(500);
  });

  it('sends an error event mid-stream', async () => {
    const server = await start({
      script: [{ fault: 'stream_error', afterEvents: 2, message: 'Overloaded now' }],
    });
    const text = await (await post(server, { ...valid, stream: true })).text();
    expect(eventNames(text)).toEqual(['message_start', 'content_block_start', 'error']);
    expect(text).toContain('{"type":"error","error":{"type":"overloaded_error","message":"Overloaded now"}}');
  });

  it('drops the connection, before or during the stream', async () => {
    const server = await start({ script: [{ fault: 'drop' }, { fault: 'drop', afterEvents: 2 }] });
    await expect(post(server, valid)).rejects.toThrow();
    const response = await post(server, { ...valid, stream: true });
    await expect(response.text()).rejects.toThrow();
    expect(await Promise.all(server.requests.map((request) => request.finished))).toEqual([
      'dropped',
      'dropped',
    ]);
  });

  it('hangs until the client goes away, and records that it did', async () => {
    const server = await start({ script: [{ fault: 'hang', afterEvents: 1 }] });
    const controller = new AbortController();
    const response = await post(server, { ...valid, stream: true }, {}, controller.signal);
    const reader = response.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(eventNames(first)).toEqual(['message_start']);
    controller.abort();
    expect(await server.requests[0]?.finished).toBe('client-closed');
  });

  it('holds a stream at a gate until the test opens it', async () => {
    let open: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    const server = await start({
      script: [{ content: [{ type: 'text', text: 'gated' }], gate, pauseAfterEvents: 2 }],
    });
    const response = await post(server, { ...valid, stream: true });
    const reader = response.body!.getReader();
    let received = '';
    while (eventNames(received).length < 2) received += new TextDecoder().decode((await reader.read()).value);
    expect(eventNames(received)).toEqual(['message_start', 'content_block_start']);
    open();
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read())
      received += new TextDecoder().decode(chunk.value);
    expect(eventNames(received).at(-1)).toBe('message_stop');
    expect(await server.requests[0]?.finished).toBe('completed');
  });

  it('resolves waitForRequests once enough requests arrived', async () => {
    const server = await start({ handler: () => ({ content: [{ type: 'text', text: 'ok' }] }) });
    const waiting = server.waitForRequests(2);
    await post(server, valid);
    await post(server, valid);
    expect((await waiting).map((request) => request.index)).toEqual([0, 1]);
  });
});

describe('simulated prompt cache', () => {
  const request = (messages: unknown[], system = 'S'.repeat(4000)) => ({
    model: 'm',
    system: [{ type: 'text', text: system, cache_control: { type: 'ephemeral' } }],
    messages,
  });

  it('writes a prefix once, then reads it, looking back from the last breakpoint', () => {
    const cache = new PromptCache();
    const first = cache.account(
      request([
        { role: 'user', content: [{ type: 'text', text: 'a', cache_control: { type: 'ephemeral' } }] },
      ]),
    );
    expect(first.cacheRead).toBe(0);
    expect(first.cacheWrite).toBeGreaterThan(1000);
    const second = cache.account(
      request([
        { role: 'user', content: [{ type: 'text', text: 'a' }] },
        { role: 'assistant', content: [{ type: 'text', text: 'b' }] },
        { role: 'user', content: [{ type: 'text', text: 'c', cache_control: { type: 'ephemeral' } }] },
      ]),
    );
    expect(second.cacheRead).toBe(first.cacheWrite);
    expect(second.cacheWrite).toBeLessThan(20);
    expect(cache.account(request([{ role: 'user', content: 'a' }], 'other')).cacheRead).toBe(0);
  });

  it('does not cache prefixes under the minimum', () => {
    const cache = new PromptCache(2000);
    const body = request([{ role: 'user', content: 'a' }]);
    expect(cache.account(body)).toMatchObject({ cacheRead: 0, cacheWrite: 0 });
    expect(cache.account(body).cacheRead).toBe(0);
  });
});
