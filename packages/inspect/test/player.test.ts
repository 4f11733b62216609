import { describe, expect, it } from 'vitest';
import { replayTimeline } from '../src/replay/replay-timeline.js';
import { activePaths, buildTimelineModel, formatStateValue } from '../src/timeline/player.js';
import { scenarios } from './fixtures.js';

describe('buildTimelineModel', () => {
  it('gives each step the state of every actor, the event taken and what changed in the context', async () => {
    const run = await scenarios.approvals!();
    const model = buildTimelineModel(run.timeline);
    const taskId = run.results[0]!.taskId;
    const task = model.frames.find(
      (frame) => frame.kind === 'actor' && frame.actors.get(frame.sessionId)!.name === taskId,
    )!;
    const course = model.frames.filter(
      (frame) => frame.kind === 'snapshot' && frame.sessionId === task.sessionId,
    );
    expect(
      course.map(
        (frame) => `${frame.event!.type} → ${formatStateValue(frame.actors.get(frame.sessionId)!.value)}`,
      ),
    ).toEqual([
      // The actor's xstate.init belongs to the frame that created it (`task`, pending).
      'task.started → running.thinking',
      'model.responded → running.awaitingApproval',
      'approval.granted → running.acting',
      'tool.started → running.acting',
      'tool.finished → running.thinking',
      'model.responded → running.awaitingApproval',
      'approval.denied → running.thinking',
      'model.responded → completed',
    ]);
    expect(formatStateValue(task.actors.get(task.sessionId)!.value)).toBe('pending');
    const approve = course[2]!;
    expect(approve.previousValue).toEqual({ running: 'awaitingApproval' });
    const counted = course.filter((frame) => frame.changes.some((change) => change.key === 'toolCalls'));
    expect(counted.map((frame) => frame.event!.type)).toEqual(['model.responded', 'model.responded']);
    const toolCalls = counted[0]!.changes.find((change) => change.key === 'toolCalls')!;
    expect([toolCalls.before, toolCalls.after]).toEqual([0, 1]);
    // Stepping back is a lookup: an earlier frame still shows the earlier context.
    expect(course[0]!.actors.get(task.sessionId)!.context.toolCalls).toBe(0);
    expect(course.at(-1)!.actors.get(task.sessionId)!.context.toolCalls).toBe(2);
    // The event log points each event at the frame that shows its effect.
    const deny = model.events.find((event) => event.event.type === 'approval.denied')!;
    expect(model.frames[deny.frame]!.event!.type).toBe('approval.denied');
    expect(model.definitions.size).toBe(2);
  });

  it("a replayed task's frame N is its state after N journal entries; its effects make no step and no event", async () => {
    const run = await scenarios.approvals!();
    const taskId = run.results[0]!.taskId;
    const { timeline, outcome } = await replayTimeline(run.store, taskId);
    const model = buildTimelineModel(timeline);
    expect(model.frames).toHaveLength(outcome.steps.length + 1);
    expect(model.frames[0]!.kind).toBe('actor');
    for (const [index, step] of outcome.steps.entries()) {
      const frame = model.frames[index + 1]!;
      expect(frame.event?.type).toBe(step.event.type);
      expect(frame.actors.get(frame.sessionId)!.value).toEqual(step.snapshot.value);
    }
    expect(model.events.map((logged) => logged.event.type)).toEqual([
      'xstate.init',
      ...outcome.steps.map((step) => step.event.type),
    ]);
    expect(model.events.map((logged) => logged.frame)).toEqual(model.frames.map((frame) => frame.index));
  });

  it('formats state values and their active paths', () => {
    expect(formatStateValue({ running: 'acting' })).toBe('running.acting');
    expect(activePaths({ running: 'acting' })).toEqual(['running', 'running.acting']);
    expect(activePaths('completed')).toEqual(['completed']);
  });
});
