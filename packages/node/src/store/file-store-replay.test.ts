import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRuntime, replayTask, type TaskStore } from '@troupe/core';
import { runReplaySuite } from '@troupe/core/store';
import { manualClock, scriptedModel, textReply } from '@troupe/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createFileStore, type FileStore } from './file-store.js';

const dirs: string[] = [];
const newDir = async () => {
  const dir = await mkdtemp(join(tmpdir(), 'troupe-replay-'));
  dirs.push(dir);
  return dir;
};
const cleanup = async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
};

// Every terminate reason recorded into files, replayed by a second store reading them back.
runReplaySuite(
  'file store',
  { describe, it, expect, afterEach },
  {
    create: async () => createFileStore({ dir: await newDir() }),
    reopen: async (store: TaskStore) => {
      await store.flush();
      return createFileStore({ dir: (store as FileStore).dir });
    },
    cleanup,
  },
);

describe('a journal file edited on disk', () => {
  afterEach(cleanup);

  it('replays to the first differing event: the changed answer', async () => {
    const dir = await newDir();
    const runtime = createRuntime({
      model: scriptedModel([textReply('the real answer')]),
      agents: [{ name: 'explore', description: 'x', systemPrompt: 'x' }],
      store: createFileStore({ dir }),
      clock: manualClock(),
    });
    const { id, result } = runtime.spawn({ agent: 'explore', prompt: 'answer' });
    await result;
    await runtime.shutdown();
    expect((await replayTask(createFileStore({ dir }), id)).matches).toBe(true);
    const file = join(dir, `${id}.journal.jsonl`);
    await writeFile(file, (await readFile(file, 'utf8')).replace('the real answer', 'a forged answer'));
    const outcome = await replayTask(createFileStore({ dir }), id);
    expect(outcome.matches).toBe(false);
    expect(outcome.differences).toEqual([
      'at journal entry 1 (model.responded): context.messages[1].content[0].text: recorded "the real answer", replayed "a forged answer"',
    ]);
  });
});
