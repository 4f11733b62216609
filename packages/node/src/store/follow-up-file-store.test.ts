import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRuntime } from '@troupe/core';
import { scriptedModel, textReply } from '@troupe/core/testing';
import { afterEach, expect, it } from 'vitest';
import { createFileStore } from './file-store.js';

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

const agents = [{ name: 'explore', description: 'Reads.', systemPrompt: 'You explore.' }];

it('a follow-up after a restart continues the stored conversation of the right task (file store)', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'troupe-follow-up-'));
  dirs.push(dir);
  const first = createRuntime({
    model: scriptedModel([textReply('auth is in src/auth.ts'), textReply('billing is in src/billing.ts')]),
    agents,
    store: createFileStore({ dir }),
  });
  const auth = await first.spawn({ agent: 'explore', prompt: 'Where is auth?' }).result;
  await first.spawn({ agent: 'explore', prompt: 'Where is billing?' }).result;
  await first.shutdown();

  const seen: unknown[] = [];
  const second = createRuntime({
    model: scriptedModel((request) => {
      seen.push(request.messages);
      return textReply('its tests are in test/auth.test.ts');
    }),
    agents,
    store: createFileStore({ dir }),
  });
  const handle = await second.followUp(auth.taskId, 'And its tests?');
  expect((await handle.result).output).toBe('its tests are in test/auth.test.ts');
  expect(seen[0]).toEqual([
    { role: 'user', content: 'Where is auth?' },
    { role: 'assistant', content: [{ type: 'text', text: 'auth is in src/auth.ts' }] },
    { role: 'user', content: 'And its tests?' },
  ]);
  expect((await second.find(handle.id))?.agent).toBe('explore');
  await second.shutdown();
});
