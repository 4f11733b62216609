import { describe, expect, it } from 'vitest';
import { inputCost, minimumCacheableTokens, PromptCache } from './prompt-cache.js';
import { textStep } from './script-helpers.js';
import { startFakeAnthropic } from './server.js';
import { validateMessagesRequest } from './validate.js';

const EPHEMERAL = { type: 'ephemeral' } as const;
const HOUR = { type: 'ephemeral', ttl: '1h' } as const;
const words = (count: number, word = 'tool') =>
  Array.from({ length: count }, (_, i) => `${word}${i}`).join(' ');

// ~1,600 tokens of tools, ~2,000 of system prompt, then a conversation.
const tools = [{ name: 'read', description: words(800), input_schema: { type: 'object' } }];
const system = words(1000, 'rule');
const body = (
  messages: unknown[],
  options: { toolsControl?: object; systemControl?: object; model?: string } = {},
) => ({
  model: options.model ?? 'claude-sonnet-4-5',
  max_tokens: 100,
  tools: [{ ...tools[0], cache_control: options.toolsControl ?? EPHEMERAL }],
  system: [{ type: 'text', text: system, cache_control: options.systemControl ?? EPHEMERAL }],
  messages,
});
const user = (text: string, control?: object) => ({
  role: 'user',
  content: [{ type: 'text', text, ...(control ? { cache_control: control } : {}) }],
});
const assistant = (text: string) => ({ role: 'assistant', content: [{ type: 'text', text }] });

describe('PromptCache (the documented rules)', () => {
  it('writes tools → system → messages at the breakpoints, then the next turn reads the whole previous prefix', () => {
    const cache = new PromptCache({ now: () => 0 });
    const first = cache.account(body([user(words(300, 'question'), EPHEMERAL)]));
    expect(first.cacheRead).toBe(0);
    expect(first.cacheWrite).toBe(first.cacheWrite5m);
    expect(first.cacheWrite).toBeGreaterThan(3000);
    const second = cache.account(
      body([user(words(300, 'question')), assistant('answer'), user('more', EPHEMERAL)]),
    );
    expect(second.cacheRead).toBe(first.cacheWrite);
    expect(second.cacheWrite).toBeLessThan(20);
    // A change to the tools moves the whole prefix: nothing is read.
    const changed = cache.account({
      ...body([user('x', EPHEMERAL)]),
      tools: [{ ...tools[0], description: 'other' }],
    });
    expect(changed.cacheRead).toBe(0);
  });

  it('reads only the prefix that ends at a breakpoint or at most 20 blocks before one', () => {
    const cache = new PromptCache({ now: () => 0 });
    const base = [user(words(50, 'question'), EPHEMERAL)];
    const first = cache.account(body(base));
    const previous = first.cacheRead + first.cacheWrite;
    // 11 assistant/user pairs after the cached end: 22 blocks, out of the lookback window.
    const long: unknown[] = [user(words(50, 'question'))];
    for (let i = 0; i < 11; i++) long.push(assistant(`a${i}`), user(`u${i}`));
    (long.at(-1) as { content: object[] }).content = [
      { type: 'text', text: 'u10', cache_control: EPHEMERAL },
    ];
    const far = cache.account(body(long));
    // Only the system breakpoint's prefix is read: the conversation is written again.
    expect(far.cacheRead).toBeLessThan(previous);
    expect(far.cacheRead).toBeGreaterThan(3000);
    // A second breakpoint where the previous request ended reads it exactly.
    const marked = structuredClone(long) as { content: Record<string, unknown>[] }[];
    marked[0]!.content[0]!.cache_control = EPHEMERAL;
    const near = new PromptCache({ now: () => 0 });
    near.account(body(base));
    expect(near.account(body(marked)).cacheRead).toBe(previous);
  });

  it('does not cache a prefix shorter than the model’s minimum', () => {
    expect(minimumCacheableTokens('claude-sonnet-4-5-20250929')).toBe(1024);
    expect(minimumCacheableTokens('claude-opus-4-5')).toBe(4096);
    expect(minimumCacheableTokens('claude-haiku-4-5')).toBe(4096);
    expect(minimumCacheableTokens('claude-3-5-haiku-latest')).toBe(2048);
    expect(minimumCacheableTokens('m')).toBe(0);
    const cache = new PromptCache({ now: () => 0 });
    // ~3,600 tokens: enough for Sonnet, too short for Opus 4.5.
    const sonnet = body([user('hi', EPHEMERAL)]);
    const opus = body([user('hi', EPHEMERAL)], { model: 'claude-opus-4-5' });
    expect(cache.account(sonnet).cacheWrite).toBeGreaterThan(0);
    expect(cache.account(sonnet).cacheRead).toBeGreaterThan(0);
    expect(cache.account(opus)).toMatchObject({ cacheRead: 0, cacheWrite: 0 });
    expect(cache.account(opus)).toMatchObject({ cacheRead: 0, cacheWrite: 0 });
    // The tools alone (~1,600 tokens) are under Opus 4.5's minimum but the system's end is over it.
    const longOpus = {
      ...opus,
      system: [{ type: 'text', text: words(3000, 'rule'), cache_control: EPHEMERAL }],
    };
    expect(cache.account(longOpus).cacheWrite).toBeGreaterThan(4096);
  });

  it('expires a 5-minute entry 5 minutes after its last use, a 1-hour one after an hour, and prices writes by lifetime', () => {
    let now = 0;
    const cache = new PromptCache({ now: () => now });
    const short = body([user('hi', EPHEMERAL)]);
    const written = cache.account(short);
    now = 4 * 60_000;
    expect(cache.account(short).cacheRead).toBe(written.cacheWrite); // refreshed at 4 min
    now = 8 * 60_000;
    expect(cache.account(short).cacheRead).toBe(written.cacheWrite); // 4 min after the refresh
    now = 14 * 60_000;
    expect(cache.account(short).cacheRead).toBe(0); // 6 min after the last use: gone, written again

    const hour = new PromptCache({ now: () => now });
    const long = body([user('hi', EPHEMERAL)], { toolsControl: HOUR, systemControl: HOUR });
    const first = hour.account(long);
    expect(first.cacheWrite1h).toBeGreaterThan(3000); // tools and system, at the 1-hour breakpoints
    expect(first.cacheWrite5m).toBeGreaterThan(0); // the message, at its 5-minute breakpoint
    expect(first.cacheWrite).toBe(first.cacheWrite1h + first.cacheWrite5m);
    expect(inputCost(first)).toBe(first.input + first.cacheWrite1h * 2 + first.cacheWrite5m * 1.25);
    now += 30 * 60_000;
    const later = hour.account(long);
    expect(later.cacheRead).toBe(first.cacheWrite1h); // the 1-hour prefix is still there
    expect(later.cacheWrite5m).toBe(first.cacheWrite5m); // the message expired and is written again
    now += 61 * 60_000;
    expect(hour.account(long).cacheRead).toBe(0);
  });
});

async function post(url: string, params: object): Promise<string> {
  const response = await fetch(`${url}/v1/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
    body: JSON.stringify(params),
  });
  return response.text();
}

describe('mixed lifetimes', () => {
  it('are refused as the API refuses them: a 1-hour breakpoint after a 5-minute one', () => {
    const ordered = body([user('hi', EPHEMERAL)], { toolsControl: HOUR, systemControl: HOUR });
    expect(validateMessagesRequest(ordered)).toEqual([]);
    const reversed = body([user('hi', HOUR)], { toolsControl: EPHEMERAL, systemControl: HOUR });
    expect(validateMessagesRequest(reversed).join('\n')).toContain("ttl='1h' must not come after");
  });
});

describe('the fake API reports the cache as the real API does', () => {
  it('in JSON and streamed responses: cache_read_input_tokens, cache_creation_input_tokens and cache_creation by lifetime', async () => {
    const fake = await startFakeAnthropic({ handler: () => textStep('ok'), now: () => 0 });
    try {
      const params = body([user('hi', EPHEMERAL)], { systemControl: HOUR, toolsControl: HOUR });
      const first = JSON.parse(await post(fake.url, params)).usage;
      expect(first.cache_read_input_tokens).toBe(0);
      expect(first.cache_creation.ephemeral_1h_input_tokens).toBeGreaterThan(3000);
      expect(first.cache_creation_input_tokens).toBe(
        first.cache_creation.ephemeral_1h_input_tokens + first.cache_creation.ephemeral_5m_input_tokens,
      );
      const stream = await post(fake.url, { ...params, stream: true });
      const events = stream
        .split('\n')
        .filter((line) => line.startsWith('data: '))
        .map((line) => JSON.parse(line.slice(6)));
      const start = events.find((event) => event.type === 'message_start').message.usage;
      const delta = events.find((event) => event.type === 'message_delta').usage;
      expect(start.cache_read_input_tokens).toBe(first.cache_creation_input_tokens);
      expect(start.cache_creation_input_tokens).toBe(0);
      expect(start.cache_creation).toEqual({ ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 });
      expect(delta).toMatchObject({
        cache_read_input_tokens: first.cache_creation_input_tokens,
        cache_creation_input_tokens: 0,
        input_tokens: start.input_tokens,
      });
      expect(fake.requests.map((request) => request.usage?.cache_read_input_tokens)).toEqual([
        0,
        first.cache_creation_input_tokens,
      ]);
    } finally {
      await fake.close();
    }
  });
});
