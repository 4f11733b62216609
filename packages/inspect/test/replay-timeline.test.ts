import { createMemoryStore, createRuntime, type TaskResult } from '@troupe/core';
import { manualClock, scriptedModel, textReply, toolReply, turnOf } from '@troupe/core/testing';
import { describe, expect, it } from 'vitest';
import { replayTimeline } from '../src/replay/replay-timeline.js';
import { createRecorder } from '../src/timeline/recorder.js';
import { taskTrack } from '../src/timeline/task-track.js';
import { guardedEffects, scenarios, settle } from './fixtures.js';

describe('replayTimeline', () => {
  for (const [key, make] of Object.entries(scenarios)) {
    it(`${key}: replays to the recorded result, with the live run's events and states, touching no model or tool`, async () => {
      const run = await make();
      const result = run.results[0]!;
      run.armed.throws = true;
      const touchesBefore = run.armed.touches;
      const { outcome, timeline } = await replayTimeline(run.store, result.taskId);
      expect(run.armed.touches).toBe(touchesBefore);
      expect(outcome.differences).toEqual([]);
      expect(outcome.matches).toBe(true);
      expect(outcome.result).toEqual(result);
      const live = taskTrack(run.timeline, result.taskId);
      const replayed = taskTrack(timeline, result.taskId);
      expect(live?.steps.length).toBeGreaterThan(1);
      expect(replayed).toEqual(live);
      expect(timeline.header.source).toEqual({ kind: 'replay', taskId: result.taskId });
    });
  }

  it('a crash and resume: the replay of the whole journal ends where the restored live run ended', async () => {
    const store = createMemoryStore();
    const clock = manualClock();
    const agents = [
      { name: 'explore', description: 'Reads.', systemPrompt: 'You explore.', tools: ['echo'] },
    ];
    const first = createRuntime({
      model: scriptedModel((request, { signal }) =>
        turnOf(request) === 1
          ? toolReply('echo', { text: 'before the crash' })
          : new Promise((_resolve, reject) =>
              signal.addEventListener('abort', () => reject(new Error('aborted'))),
            ),
      ),
      tools: guardedEffects().tools,
      agents,
      clock,
      store,
      approval: 'auto',
    });
    const handle = first.spawn({ agent: 'explore', prompt: 'survive', sessionKey: 's1' });
    await settle();
    await first.shutdown({ keepTasks: true });

    const recorder = createRecorder({ now: clock.now });
    const second = createRuntime({
      model: scriptedModel(() => textReply('after the resume')),
      tools: guardedEffects().tools,
      agents,
      clock,
      store,
      approval: 'auto',
      inspect: recorder.inspect,
    });
    const done = new Promise<TaskResult>((resolve) =>
      second.on('task.completed', (event) => resolve(event.result)),
    );
    const { restored } = await second.restore();
    expect(restored).toEqual([handle.id]);
    const result = await done;
    await second.shutdown();

    const { outcome, timeline } = await replayTimeline(store, handle.id);
    expect(outcome.matches).toBe(true);
    expect(outcome.result).toEqual(result);
    const live = taskTrack(recorder.timeline(), handle.id)!;
    const replayed = taskTrack(timeline, handle.id)!;
    // The restored actor starts from its snapshot (its `xstate.init`), then takes the journal's
    // tail: that course is the end of the whole replay.
    const [init, ...tail] = live.steps;
    expect(init!.event.type).toBe('xstate.init');
    expect(tail.length).toBeGreaterThan(0);
    const replayTail = replayed.steps.slice(-tail.length);
    expect(replayTail.map((step) => [step.event, step.value])).toEqual(
      tail.map((step) => [step.event, step.value]),
    );
    expect(replayed.steps.at(-tail.length - 1)!.value).toEqual(init!.value);
    expect(replayed.steps.at(-1)).toMatchObject({ value: 'completed' });
  });

  it('an unknown task id is an error naming it', async () => {
    await expect(replayTimeline(createMemoryStore(), 't_nope')).rejects.toThrow(/t_nope/);
  });
});
