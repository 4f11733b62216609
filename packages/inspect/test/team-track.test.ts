import { describe, expect, it } from 'vitest';
import { replayTeamTimeline } from '../src/replay/replay-team-timeline.js';
import { toStatelyEvents } from '../src/stately/stately-events.js';
import { buildTimelineModel } from '../src/timeline/player.js';
import { createRecorder } from '../src/timeline/recorder.js';
import { runLanes } from '../src/timeline/run-tree.js';
import { teamBoard, teamStateAt, teamTracks } from '../src/timeline/team-track.js';
import { formatTimeline, parseTimeline } from '../src/timeline/timeline-jsonl.js';
import { recordTeamJob } from './team-fixture.js';

const ids = (tasks: readonly { id: string }[]) => tasks.map((task) => task.id);

describe('the team track of a replayed team', () => {
  it('has one lane per member, each spell, every message sent → delivered in order, and the board at a step', async () => {
    const { store, teamId, result } = await recordTeamJob();
    expect(result.status).toBe('completed');
    const { outcome, timeline: replayed } = await replayTeamTimeline(store, teamId, { storeName: 'memory' });
    expect(outcome.differences).toEqual([]);
    expect(outcome.matches).toBe(true);
    expect(replayed.header.source).toEqual({ kind: 'replay', taskId: teamId, store: 'memory' });
    // Through a file and back: the team's records are timeline records.
    const timeline = parseTimeline(formatTimeline(replayed));
    expect(toStatelyEvents(timeline).length).toBe(
      timeline.records.filter(
        (record) => record.type !== 'troupe.team' && record.type !== 'troupe.definition',
      ).length,
    );

    const [track, ...others] = teamTracks(timeline);
    expect(others).toEqual([]);
    expect(track!.teamId).toBe(teamId);
    expect(track!.members.map((member) => [member.name, member.agent, member.lead])).toEqual([
      ['lead', 'general-purpose', true],
      ['alice', 'explore', false],
      ['bob', 'explore', false],
      ['carol', 'writer', false],
    ]);
    expect(track!.members.find((member) => member.name === 'carol')?.planModeRequired).toBe(true);

    // Spells: every spell a task of its member, started after the team journaled it; its actor is in
    // the timeline under its own (renamed) session ids, after the record that started it.
    const model = buildTimelineModel(timeline);
    const actors = new Map<string, number>();
    for (const frame of model.frames)
      if (frame.kind === 'actor') {
        const task = frame.actors.get(frame.sessionId)!.context.task as { taskId?: string } | undefined;
        if (task?.taskId && !actors.has(task.taskId)) actors.set(task.taskId, frame.recordIndex);
      }
    for (const member of result.members)
      expect(track!.spells.filter((spell) => spell.member === member.name).map((spell) => spell.n)).toEqual(
        Array.from({ length: member.spells }, (_, index) => index + 1),
      );
    for (const spell of track!.spells) {
      expect(spell.taskId).toBe(`${teamId}-${spell.member}-${spell.n}`);
      expect(actors.get(spell.taskId), spell.taskId).toBeGreaterThan(spell.startRecord);
      expect(spell.endRecord!).toBeGreaterThan(actors.get(spell.taskId)!);
      expect(spell.status).toBe('completed');
    }
    expect(
      runLanes(model)
        .map((lane) => lane.name)
        .sort(),
    ).toEqual(track!.spells.map((spell) => spell.taskId).sort());

    // Messages: the team's order; each an arrow from its sender to its receiver, delivered after it
    // was sent, into a spell of the receiver running then. The broadcast is one arrow per teammate.
    expect(track!.messages.map((message) => [message.id, message.from, message.to, message.text])).toEqual(
      result.messages.map((message) => [message.id, message.from, message.to, message.text]),
    );
    expect(track!.messages.map((message) => message.kind)).toEqual([
      'broadcast',
      'broadcast',
      'broadcast',
      'plan-request',
      'plan-answer',
      'message',
      'message',
      'message',
    ]);
    expect(track!.messages.slice(0, 3).map((message) => message.to)).toEqual(['alice', 'bob', 'carol']);
    expect(track!.messages[0]!.group).toEqual(['m1', 'm2', 'm3']);
    expect(track!.messages[0]!.summary).toBe('tasks ready');
    const sent = track!.messages.map((message) => message.sentRecord);
    expect(sent).toEqual([...sent].sort((a, b) => a - b));
    for (const message of track!.messages) {
      expect(message.deliveredRecord, message.id).toBeGreaterThan(message.sentRecord);
      expect(message.deliveredAt!).toBeGreaterThanOrEqual(message.sentAt);
      const spell = track!.spells.find((candidate) => candidate.taskId === message.spell)!;
      expect(spell.member, message.id).toBe(message.to);
      expect(spell.startRecord).toBeLessThanOrEqual(message.deliveredRecord!);
      expect(spell.endRecord!).toBeGreaterThan(message.deliveredRecord!);
    }
    // alice's "#1 done" woke bob's second spell; carol's plan request was steered into the lead's spell.
    expect(track!.messages[5]).toMatchObject({ from: 'alice', to: 'bob', text: '#1 done', delivery: 'woke' });
    expect(track!.messages[5]!.spell).toBe(`${teamId}-bob-2`);
    expect(track!.messages[3]).toMatchObject({ from: 'carol', to: 'lead', delivery: 'steered' });

    // The board as it stood at a step: at the step after alice claimed #1, and at the last step.
    const claim = track!.changes.find(
      (change) => change.event.type === 'team.task.updated' && change.event.task.owner === 'alice',
    )!;
    const step = model.frames.find((frame) => frame.recordIndex > claim.recordIndex)!;
    const before = model.frames[step.index - 1]!;
    expect(ids(teamBoard(teamStateAt(track!, before.recordIndex)).in_progress)).toEqual([]);
    const atClaim = teamBoard(teamStateAt(track!, step.recordIndex));
    expect(ids(atClaim.pending)).toEqual(['2', '3']);
    expect(ids(atClaim.in_progress)).toEqual(['1']);
    expect(atClaim.in_progress[0]!.owner).toBe('alice');
    expect(atClaim.pending.map((task) => task.blockedBy)).toEqual([['1'], ['2']]);
    const atEnd = teamBoard(teamStateAt(track!, model.frames.at(-1)!.recordIndex));
    expect(ids(atEnd.completed)).toEqual(['1', '2', '3']);
    expect(atEnd.completed.map((task) => task.owner)).toEqual(['alice', 'bob', 'carol']);
    expect(teamBoard(teamStateAt(track!, -1))).toEqual({ pending: [], in_progress: [], completed: [] });
    expect(teamStateAt(track!, Number.MAX_SAFE_INTEGER).ended?.status).toBe('completed');
  });

  it('recorded live (recordTeams), the team is drawn as its replay draws it', async () => {
    const recorder = createRecorder();
    const { store, teamId } = await recordTeamJob(undefined, recorder);
    const live = recorder.timeline();
    const { timeline: replayed } = await replayTeamTimeline(store, teamId);
    const [track] = teamTracks(live);
    const [again] = teamTracks(replayed);
    const arrows = (of: typeof track) =>
      of!.messages.map(({ id, from, to, text, kind, group, delivery, spell }) => ({
        id,
        from,
        to,
        text,
        kind,
        group,
        delivery,
        spell,
      }));
    expect(arrows(track)).toEqual(arrows(again));
    const spells = (of: typeof track) =>
      of!.spells.map(({ member, taskId, n, status }) => [member, taskId, n, status]);
    expect(spells(track)).toEqual(spells(again));
    expect(track!.changes.map((change) => change.event)).toEqual(
      again!.changes.map((change) => change.event),
    );
    // Each spell's actor appears after the team record that started it, and takes its messages after
    // they were delivered.
    const model = buildTimelineModel(live);
    for (const spell of track!.spells) {
      const actor = model.frames.find(
        (frame) => frame.kind === 'actor' && frame.actors.get(frame.sessionId)!.name === spell.taskId,
      );
      expect(actor?.recordIndex, spell.taskId).toBeGreaterThan(spell.startRecord);
    }
    const end = model.frames.at(-1)!.recordIndex;
    expect(teamBoard(teamStateAt(track!, Number.MAX_SAFE_INTEGER))).toEqual(
      teamBoard(teamStateAt(again!, Number.MAX_SAFE_INTEGER)),
    );
    expect(teamStateAt(track!, end).tasks.length).toBe(3);
  });

  it('refuses a task that is not a team', async () => {
    const { store, teamId } = await recordTeamJob();
    await expect(replayTeamTimeline(store, `${teamId}-lead-1`)).rejects.toThrow(/No team/);
    await expect(replayTeamTimeline(store, 'nope')).rejects.toThrow(/No team "nope"/);
  });
});
