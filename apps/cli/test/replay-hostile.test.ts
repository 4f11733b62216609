// Issue #21, item 4: a 100,000-deep value in a stored snapshot or journal made `troupe replay`
// print "Maximum call stack size exceeded". It now says in one line what cannot be read, and where.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { scriptedModel, textReply } from '@troupe/core/testing';
import { describe, expect, it } from 'vitest';
import { replay, storeWithTask } from './helpers/replay.js';

const DEEP = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;

/** A file store holding one finished task that answered "done". */
function storeWithAnsweredTask() {
  return storeWithTask(
    {
      model: scriptedModel([textReply('done')]),
      agents: [{ name: 'explore', description: 'Reads.', systemPrompt: 'You explore.' }],
    },
    { agent: 'explore', prompt: 'Where is auth?' },
    'replay-hostile',
  );
}

describe('troupe replay of a store holding a 100,000-deep value', () => {
  it('a deep snapshot: one warning naming the task and the document; the journal still replays', async () => {
    const { dir, id } = await storeWithAnsweredTask();
    const file = join(dir, `${id}.snapshot.json`);
    writeFileSync(file, readFileSync(file, 'utf8').replace('"messages":[', `"messages":[${DEEP},`));
    const run = await replay([id, '--store', dir], dir);
    expect(run.stderr).not.toMatch(/Maximum call stack|RangeError| {4}at /);
    expect(run.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(
        new RegExp(
          `^troupe: warning: the stored snapshot cannot be read: .*${id}\\.snapshot\\.json: The snapshot document cannot be read: it is nested more than 512 levels deep`,
        ),
      ),
    ]);
    expect(run.stdout).toContain('Final: completed (GOAL)');
    expect(run.code).toBe(0);
  });

  it('a deep journal entry: the warning names the journal and line; the replay stops before it', async () => {
    const { dir, id } = await storeWithAnsweredTask();
    const file = join(dir, `${id}.journal.jsonl`);
    const lines = readFileSync(file, 'utf8').split('\n');
    lines[1] = lines[1]!.replace('"text":"done"', `"text":"done","deep":${DEEP}`);
    writeFileSync(file, lines.join('\n'));
    const run = await replay([id, '--store', dir], dir);
    expect(run.stderr).not.toMatch(/Maximum call stack|RangeError| {4}at /);
    expect(run.stderr).toMatch(
      new RegExp(
        `troupe: warning: the journal is damaged, the replay stops early: .*${id}\\.journal\\.jsonl:2: .*nested more than 512 levels deep`,
      ),
    );
    expect(run.stdout).toMatch(/✗ not reproduced/);
    expect(run.code).toBe(1);
  });
});
