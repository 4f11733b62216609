// What each request reads from and writes to the prompt cache, through the runtime and
// @troupe/anthropic against the fake API's cache simulator: a forked child reads its parent's
// prefix; an agent registered mid-session leaves the main agent's prefix intact; a main agent with
// background work running asks for the 1-hour lifetime, so its announcement turn still reads it.
import { createAgentRegistry, createRuntime } from '@troupe/core';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type FakeAnthropicModel,
  type RecordedRequest,
  startFakeAnthropicModel,
  systemOf,
  textStep,
  toolStep,
} from '../fake-anthropic/index.js';
import { lookupTool } from './lookup-tool.js';

const lookup = lookupTool((key) => `fact about ${key}: ${'detail '.repeat(100)}`);

const FORK = 'End of the parent conversation';
let fake: FakeAnthropicModel | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const isMain = (request: RecordedRequest) =>
  systemOf(request).includes('main agent') && !JSON.stringify(request.body.messages).includes(FORK);
const written = (request: RecordedRequest) =>
  request.usage!.cache_read_input_tokens + request.usage!.cache_creation_input_tokens;
const lastUserText = (request: RecordedRequest) => JSON.stringify(request.body.messages.at(-1));

describe('requests that keep the prompt cache', () => {
  it('a forked child’s first request reads the whole prefix its parent wrote', async () => {
    fake = await startFakeAnthropicModel({
      minCacheTokens: 1,
      handler: (request) => {
        if (isMain(request)) {
          if (lastUserText(request).includes('fork it'))
            return toolStep('task', { description: 'd', prompt: 'look deeper', subagent_type: 'forker' });
          return lastUserText(request).includes('tool_result') ? textStep('main done') : textStep('hello');
        }
        return textStep('child done');
      },
    });
    const runtime = createRuntime({
      model: fake.model,
      tools: [lookup],
      agents: [
        {
          name: 'forker',
          description: 'Forks.',
          systemPrompt: 'You fork.',
          tools: ['lookup'],
          forkContext: true,
        },
      ],
    });
    const session = runtime.createSession();
    await session.send('first question');
    await session.send('fork it');
    const requests = fake.server.requests;
    const parent = requests.filter(isMain).find((request) => lastUserText(request).includes('fork it'))!;
    const child = requests.find((request) => JSON.stringify(request.body.messages).includes(FORK))!;
    expect(child.body.tools).toEqual(parent.body.tools);
    expect(child.body.system).toEqual(parent.body.system);
    expect(child.usage!.cache_read_input_tokens).toBe(written(parent));
    await runtime.shutdown();
  });

  it('an agent registered mid-session: the main agent’s next request reads its whole previous prefix', async () => {
    fake = await startFakeAnthropicModel({ minCacheTokens: 1, handler: () => textStep('ok') });
    const registry = createAgentRegistry({
      definitions: [{ name: 'explore', description: 'Finds things.', systemPrompt: 'x', tools: ['lookup'] }],
    });
    const runtime = createRuntime({ model: fake.model, tools: [lookup], agents: registry });
    const session = runtime.createSession();
    await session.send('one');
    registry.add({ name: 'newcomer', description: 'Joined later.', systemPrompt: 'x', tools: ['lookup'] });
    await session.send('two');
    const [first, second] = fake.server.requests;
    expect(second!.usage!.cache_read_input_tokens).toBe(written(first!));
    expect(lastUserText(second!)).toContain('newcomer: Joined later.');
    await runtime.shutdown();
  });

  it('with background work running, the main agent asks for the 1-hour lifetime: its announcement turn after 6 minutes still reads its prefix', async () => {
    let now = 0;
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    fake = await startFakeAnthropicModel({
      minCacheTokens: 1,
      now: () => now,
      handler: async (request) => {
        if (!isMain(request)) {
          await released;
          return textStep('background result');
        }
        const last = lastUserText(request);
        if (last.includes('start it'))
          return toolStep('task', {
            description: 'bg',
            prompt: 'work long',
            subagent_type: 'explore',
            run_in_background: true,
          });
        return textStep(last.includes('tool_result') ? 'started' : 'told the user');
      },
    });
    const runtime = createRuntime({
      model: fake.model,
      tools: [lookup],
      agents: [{ name: 'explore', description: 'Finds things.', systemPrompt: 'x', tools: ['lookup'] }],
    });
    const session = runtime.createSession();
    const announced = new Promise<void>((resolve) =>
      session.on('message', (message) => {
        if (message.kind === 'reply' && message.text === 'told the user') resolve();
      }),
    );
    await session.send('start it');
    now += 6 * 60_000;
    release();
    await announced;
    const main = fake.server.requests.filter(isMain);
    const [, waiting, announcement] = main;
    // The request made while the task ran wrote its prefix with the 1-hour lifetime.
    expect(waiting!.body.system[0].cache_control).toEqual({ type: 'ephemeral', ttl: '1h' });
    expect(waiting!.usage!.cache_creation.ephemeral_1h_input_tokens).toBeGreaterThan(0);
    expect(waiting!.usage!.cache_creation.ephemeral_5m_input_tokens).toBe(0);
    // 6 minutes later, the announcement turn reads all of it.
    expect(announcement!.usage!.cache_read_input_tokens).toBe(written(waiting!));
    // With no background work left, the announcement turn asks for the default lifetime.
    expect(announcement!.body.system[0].cache_control).toEqual({ type: 'ephemeral' });
    await runtime.shutdown();
  });
});
