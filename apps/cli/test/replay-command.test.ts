import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { defineTool } from '@troupe/core';
import { scriptedModel, textReply, toolReply } from '@troupe/core/testing';
import { parseTimeline } from '@troupe/inspect';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { replay, storeWithTask } from './helpers/replay.js';

/** A file store holding one finished task: a tool call, then an answer. */
function storeWithLookupTask() {
  return storeWithTask(
    {
      model: scriptedModel([
        toolReply('lookup', { key: 'auth' }, { id: 'toolu_1' }),
        textReply('auth is in src/auth.js'),
      ]),
      tools: [
        defineTool({
          name: 'lookup',
          description: 'Looks a key up',
          access: 'read',
          input: v.object({ key: v.string() }),
          execute: ({ key }) => `found ${key}`,
        }),
      ],
      agents: [{ name: 'explore', description: 'Reads.', systemPrompt: 'You explore.', tools: ['lookup'] }],
    },
    { agent: 'explore', prompt: 'Where is auth?', sessionKey: 's1' },
  );
}

describe('troupe replay', () => {
  it('prints each step (event, state, tokens, tool calls) and ends with "reproduced exactly"', async () => {
    const { dir, id } = await storeWithLookupTask();
    const run = await replay([id.slice(0, 8), '--store', dir], dir);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const lines = run.stdout.split('\n');
    expect(lines[0]).toBe(`Replaying ${id} [explore] Where is auth?`);
    // Step N is the state after the first N journal entries (the numbers --fork-at takes).
    expect(run.stdout).toMatch(/^step {2}event/m);
    expect(run.stdout).toMatch(/ 1 {2}task\.started +running\.thinking +0/);
    expect(run.stdout).toMatch(
      / 2 {2}model\.responded \(turn 1\) {2}running\.acting +15 {2}\+10 in \+5 out {2}calls lookup\(\{"key":"auth"\}\)/,
    );
    expect(run.stdout).toMatch(/ 3 {2}tool\.finished +running\.thinking +15 {2}result found auth/);
    expect(run.stdout).toMatch(
      / 4 {2}model\.responded \(turn 2\) {2}completed +30 {2}\+10 in \+5 out {2}answer auth is in src\/auth\.js/,
    );
    expect(run.stdout).toContain('Final: completed (GOAL) · 2 turns · 1 tool call · 30 tokens');
    expect(run.stdout).toContain(
      '✓ reproduced exactly: the replay equals the stored snapshot after 4 journal entries and the stored result.',
    );
  });

  it('names the first difference when the recorded result does not match, and exits 1', async () => {
    const { dir, id } = await storeWithLookupTask();
    const file = join(dir, `${id}.json`);
    const document = JSON.parse(readFileSync(file, 'utf8'));
    document.result.output = 'something else';
    writeFileSync(file, JSON.stringify(document));
    const lines = readFileSync(join(dir, 'tasks.jsonl'), 'utf8').split('\n').filter(Boolean);
    const patched = lines.map((line) => {
      const record = JSON.parse(line);
      if (record.result) record.result.output = 'something else';
      return JSON.stringify(record);
    });
    writeFileSync(join(dir, 'tasks.jsonl'), `${patched.join('\n')}\n`);
    const run = await replay([id, '--store', dir], dir);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(
      /✗ not reproduced: first difference at journal entry 3 \(\S+\): result\.output: recorded "something else", replayed "auth is in src\/auth\.js"/,
    );
  });

  it('refuses a journal of an unknown schema version, naming the file and line', async () => {
    const { dir, id } = await storeWithLookupTask();
    const file = join(dir, `${id}.journal.jsonl`);
    const lines = readFileSync(file, 'utf8').split('\n');
    lines[2] = lines[2]!.replace(/"v":\d+/, '"v":9');
    writeFileSync(file, lines.join('\n'));
    const run = await replay([id, '--store', dir], dir);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`troupe: Cannot replay task ${id}: ${file}:3`);
    expect(run.stderr).toMatch(/version 9/);
  });

  it('replays a truncated journal as far as it goes, warns where it was cut, and reports the difference', async () => {
    const { dir, id } = await storeWithLookupTask();
    const file = join(dir, `${id}.journal.jsonl`);
    const text = readFileSync(file, 'utf8');
    writeFileSync(file, text.slice(0, text.length - 40));
    const run = await replay([id, '--store', dir], dir);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      `troupe: warning: the journal is damaged, the replay stops early: ${file}:4`,
    );
    expect(run.stdout).toContain('Stopped in {"running":"thinking"}');
    expect(run.stdout).toContain(
      '✗ not reproduced: first difference at journal entry 2 (tool.finished): the journal ends here: the stored snapshot reflects 4 entries, the journal holds 3',
    );
  });

  it('says so for a task id that does not exist', async () => {
    const { dir } = await storeWithLookupTask();
    const run = await replay(['t_nope', '--store', dir], dir);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('No task with id "t_nope"');
  });

  it('saves the timeline with --save, and refuses a file that is not a timeline', async () => {
    const { dir, id } = await storeWithLookupTask();
    const saved = join(dir, 'replay.timeline.jsonl');
    const run = await replay([id, '--store', dir, '--save', saved], dir);
    expect(run.code).toBe(0);
    const timeline = parseTimeline(readFileSync(saved, 'utf8'), saved);
    expect(timeline.header.source).toEqual({ kind: 'replay', taskId: id, store: dir });
    const notTimeline = await replay([join(dir, 'tasks.jsonl'), '--inspect'], dir);
    expect(notTimeline.code).toBe(1);
    expect(notTimeline.stderr).toContain(`${join(dir, 'tasks.jsonl')} is not a troupe timeline`);
  });
});
