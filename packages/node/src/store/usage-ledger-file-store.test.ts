import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRuntime, estimateCost, type ModelRequest, priceOf } from '@troupe/core';
import { scriptedModel, textReply, toolReply } from '@troupe/core/testing';
import { afterEach, expect, it } from 'vitest';
import { createFileStore } from './file-store.js';

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

const agents = [{ name: 'explore', description: 'Reads.', systemPrompt: 'You explore.', model: 'haiku' }];
const models = { default: 'claude-sonnet-4-5', haiku: 'claude-haiku-4-5', opus: 'claude-opus-4-5' };

/** The main agent delegates its first message to explore; sub-agent and main answers carry usage. */
function reply(request: ModelRequest) {
  if (request.system.includes('You explore.'))
    return textReply('auth is in src/auth.ts', { input: 1000, output: 100 });
  const last = request.messages.at(-1);
  const fromTool =
    typeof last?.content !== 'string' && last?.content.some((block) => block.type === 'tool_result');
  if (!fromTool && request.messages.length === 1)
    return toolReply(
      'task',
      { description: 'find auth', prompt: 'Where is auth?', subagent_type: 'explore' },
      { usage: { input: 3000, output: 30, cacheWrite: 2500 } },
    );
  return textReply('Auth is in src/auth.ts.', { input: 3200, output: 40, cacheRead: 2500 });
}

it('the ledger survives a restart with a session: main-agent runs per model, its tasks, costs (file store)', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'troupe-ledger-'));
  dirs.push(dir);
  const first = createRuntime({
    model: scriptedModel(reply),
    agents,
    models,
    store: createFileStore({ dir }),
  });
  const session = first.createSession({ sessionKey: 'chat' });
  await session.send('Where is auth?');
  first.agents.models.default = models.opus; // `/model opus`: the next run is answered by opus
  await session.send('Thanks.');
  const before = await first.usage({ sessionKey: 'chat' });
  await first.shutdown();

  const second = createRuntime({
    model: scriptedModel(reply),
    agents,
    models,
    store: createFileStore({ dir }),
  });
  expect((await second.restore()).restored).toEqual([]);
  const after = await second.usage({ sessionKey: 'chat' });
  expect(after).toEqual(before);
  expect(after.main).toMatchObject({ tasks: 2, input: 9400, output: 110, cacheRead: 5000, cacheWrite: 2500 });
  expect(after.total).toMatchObject({ tasks: 3, input: 10_400, output: 210 });
  expect(after.byAgent.explore).toMatchObject({ tasks: 1, input: 1000 });
  expect(after.byModel[models.default]).toMatchObject({ tasks: 1, input: 6200 });
  expect(after.byModel[models.opus]).toMatchObject({ tasks: 1, input: 3200 });
  expect(after.byModel[models.haiku]).toMatchObject({ tasks: 1, input: 1000 });
  const sonnetRun = { input: 6200, output: 70, cacheRead: 2500, cacheWrite: 2500 };
  const opusRun = { input: 3200, output: 40, cacheRead: 2500 };
  expect(after.main.cost).toBeCloseTo(
    estimateCost(sonnetRun, priceOf(models.default)!) + estimateCost(opusRun, priceOf(models.opus)!),
    12,
  );
  expect((await second.usage()).total.tasks).toBe(3);
  await second.shutdown();
});
