import { createRuntime, defineTool } from '@troupe/core';
import { scriptedModel, textReply, toolReply } from '@troupe/core/testing';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { createColors } from '../src/render/colors.js';
import { ProgressBoard } from '../src/render/progress-board.js';

const look = defineTool({
  name: 'look',
  description: 'Looks at a path',
  access: 'read',
  input: v.object({ path: v.string() }),
  execute: ({ path }) => `saw ${path}`,
});

function setup(maxConcurrent: number) {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  const model = scriptedModel(async (request) => {
    const turns = request.messages.filter((message) => message.role === 'assistant').length;
    if (turns === 0)
      return toolReply('look', { path: `src/${request.taskId}` }, { usage: { input: 100, output: 20 } });
    await gate;
    return textReply('found it', { input: 200, output: 30 });
  });
  const runtime = createRuntime({
    model,
    agents: [
      { name: 'explore', description: 'Explores', systemPrompt: 'Explore.', tools: ['look'], color: 'blue' },
    ],
    tools: [look],
    limits: { maxConcurrent },
  });
  return { runtime, release };
}

describe('ProgressBoard', () => {
  it('plain mode prints one line per step: queued, started, each tool call, the end', async () => {
    const { runtime, release } = setup(1);
    const lines: string[] = [];
    const board = new ProgressBoard({
      colors: createColors(false),
      mode: 'plain',
      log: (line) => lines.push(line),
    });
    board.attach(runtime);
    const first = runtime.spawn({ agent: 'explore', prompt: 'a', description: 'First task' });
    const second = runtime.spawn({ agent: 'explore', prompt: 'b', description: 'Second task' });
    release();
    await Promise.all([first.result, second.result]);
    expect(lines).toEqual([
      '[explore] First task ... started',
      '[explore] Second task ... queued (#1, waiting for a free slot)',
      `[explore] First task ... look src/${first.id}`,
      expect.stringMatching(/^\[explore\] First task - done \(1 tool, \d+ms, 350 tokens\)$/),
      '[explore] Second task ... started',
      `[explore] Second task ... look src/${second.id}`,
      expect.stringMatching(/^\[explore\] Second task - done \(1 tool, \d+ms, 350 tokens\)$/),
    ]);
    await runtime.shutdown();
  });

  it('live mode keeps unfinished tasks as live lines, with the queue position and the last tool', async () => {
    const { runtime, release } = setup(1);
    const logged: string[] = [];
    let now = Date.now();
    const board = new ProgressBoard({
      colors: createColors(false),
      mode: 'live',
      log: (line) => logged.push(line),
      now: () => now,
      colorOf: (agent) => runtime.agents.get(agent)?.color,
    });
    board.attach(runtime);
    const first = runtime.spawn({ agent: 'explore', prompt: 'a', description: 'First task' });
    runtime.spawn({ agent: 'explore', prompt: 'b', description: 'Second task' });
    // Wait until the first task's tool ran (its second model call waits on the gate).
    await new Promise<void>((resolve) => {
      const off = runtime.on('tool.finished', () => {
        off();
        resolve();
      });
    });
    now += 2_500;
    expect(board.liveLines()).toEqual([
      `[explore] First task ... 1 tool, ${/\d+\.\ds/.exec(board.liveLines()[0]!)?.[0]} · look src/${first.id}`,
      '[explore] Second task ... queued (#1)',
    ]);
    expect(board.liveLines()[0]).toMatch(/1 tool, 2\.\ds/);
    expect(logged).toEqual([]);
    board.expanded = true;
    release();
    await first.result;
    expect(logged).toEqual([expect.stringMatching(/^\[explore\] First task - done \(1 tool/)]);
    await runtime.shutdown();
  });

  it('shows only the tasks of its session, and a [main] line while the main agent works', async () => {
    const { runtime, release } = setup(5);
    let busy = true;
    const board = new ProgressBoard({
      colors: createColors(false),
      mode: 'live',
      log: () => {},
      sessionKey: 'mine',
      mainBusy: () => busy,
    });
    board.attach(runtime);
    runtime.spawn({ agent: 'explore', prompt: 'a', description: 'Mine', sessionKey: 'mine' });
    runtime.spawn({ agent: 'explore', prompt: 'b', description: 'Theirs', sessionKey: 'other' });
    const lines = board.liveLines();
    expect(lines[0]).toMatch(/^\[main\] thinking/);
    expect(lines.slice(1).map((line) => line.split(' ... ')[0])).toEqual(['[explore] Mine']);
    busy = false;
    expect(board.liveLines()).toHaveLength(1);
    release();
    await runtime.shutdown();
  });
});
