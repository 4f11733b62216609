import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRuntime, replayTask } from '@troupe/core';
import { echoAndSaveTools, scriptedModel } from '@troupe/core/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFileStore } from './file-store.js';

// A store written by troupe 0.1 (schema version 1): see test/fixtures/store/README.md.
const fixture = fileURLToPath(new URL('../../test/fixtures/store/v1-run/', import.meta.url));
const COMPLETED = 't_mwtqepcg00019u';
const MAX_TURNS = 't_mwtqepfv0002hs';
const AWAITING = 't_mwtqeph20003v3';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'troupe-v1-run-'));
  await cp(fixture, dir, { recursive: true });
});
afterEach(() => rm(dir, { recursive: true, force: true }));

function runtimeOver(store: ReturnType<typeof createFileStore>, saved: string[]) {
  const [echo, save] = echoAndSaveTools({
    onCall: (call) => {
      if (call.tool === 'save') saved.push(call.input.note);
    },
  });
  return createRuntime({
    model: scriptedModel(() => ({
      content: [{ type: 'text', text: 'Saved it.' }],
      usage: { input: 5, output: 3 },
    })),
    store,
    approval: 'ask',
    tools: [echo, save],
    agents: [
      {
        name: 'explore',
        description: 'Explores',
        systemPrompt: 'You explore.',
        tools: ['echo', 'save'],
        maxTurns: 3,
      },
    ],
  });
}

describe('a version-1 store, written by troupe 0.1', () => {
  it('replays its finished tasks to their recorded results, MAX_TURNS grace turn included', async () => {
    const store = createFileStore({ dir });
    for (const id of [COMPLETED, MAX_TURNS]) {
      const outcome = await replayTask(store, id);
      expect(outcome.differences).toEqual([]);
      expect(outcome.matches).toBe(true);
      // The whole version-1 snapshot document (every context field, savedAt) and the result.
      expect(outcome.compared).toEqual([
        `the stored snapshot after ${outcome.steps.length} journal entries`,
        'the stored result',
      ]);
      expect(outcome.steps[0]?.event.type).toBe('task.started');
    }
    expect((await replayTask(store, MAX_TURNS)).result?.terminateReason).toBe('MAX_TURNS');
  });

  it('restores the task that was awaiting approval: asked again, the write runs once, it completes', async () => {
    const store = createFileStore({ dir });
    const saved: string[] = [];
    const runtime = runtimeOver(store, saved);
    const asked: string[] = [];
    runtime.on('approval.requested', (request) => {
      asked.push(request.tool);
      runtime.approve(request.id);
    });
    const { restored, warnings } = await runtime.restore();
    expect(warnings).toEqual([]);
    expect(restored).toEqual([AWAITING]);
    const result = await runtime.result(AWAITING);
    expect(result?.status).toBe('completed');
    expect(result?.output).toBe('Saved it.');
    expect(asked).toEqual(['save']);
    expect(saved).toEqual(['hello']);
    await runtime.shutdown();
    const page = await createFileStore({ dir }).listTasks();
    expect(page.tasks.map((task) => [task.taskId, task.status])).toEqual([
      [AWAITING, 'completed'],
      [MAX_TURNS, 'failed'],
      [COMPLETED, 'completed'],
    ]);
  });
});
