import { describe, expect, it } from 'vitest';
import type { Message } from '../model/types.js';
import { finalRecord, queuedRecord, resultDocument } from '../persistence/task-documents.js';
import { transcriptOf } from '../persistence/transcript.js';
import type { JournalEntry, TaskStore } from '../persistence/types.js';
import { replayTeam } from '../replay/replay-team.js';
import { fixtureRuntime, hang, settle } from '../runtime/test-fixtures.js';
import { createMemoryStore } from '../store/memory-store.js';
import { memberOf, receivedText } from '../testing/conversation.js';
import { reportTeamJob } from '../testing/report-team-job.js';
import { textReply, toolReply } from '../testing/scripted-model.js';
import { deliveredIds } from './mailbox.js';
import { teamEventsOf } from './team-documents.js';

/**
 * Whether a rally player's last turn asks it to send: a turn of its own (its start, or messages that
 * woke it), or a tool result that a teammate's message rides with (a message that arrives while the
 * spell runs is steered in with the result). A bare tool result ends the spell.
 */
function asksForAMove(last: Message): boolean {
  if (typeof last.content === 'string') return true;
  const blocks = last.content;
  if (blocks.some((block) => block.type === 'text' && block.text.includes('<teammate-message'))) return true;
  return !blocks.some((block) => block.type === 'tool_result');
}

import type { TeamEvent } from './team-events.js';
import type { TeamState } from './team-state.js';

/** Every message id each member's spells received, in spell order, read from the store. */
async function receivedByMember(store: TaskStore, state: TeamState): Promise<Record<string, string[]>> {
  await store.flush();
  const { entries } = await store.loadJournal(state.teamId);
  const byMember: Record<string, string[]> = {};
  for (const event of teamEventsOf(entries)) {
    if (event.type !== 'team.spell.started') continue;
    const task = (await store.getTask(event.taskId))!;
    const [snapshot, journal] = await Promise.all([
      store.loadSnapshot(event.taskId),
      store.loadJournal(event.taskId),
    ]);
    const messages = transcriptOf(task.spec, snapshot, journal.entries);
    // A spell's history repeats its member's earlier spells: only what this spell added counts.
    const own = messages.slice(task.spec.messages.length - 1);
    byMember[event.member] = [...(byMember[event.member] ?? []), ...deliveredIds(own)];
  }
  return byMember;
}

describe('agent teams', () => {
  it('a lead and three teammates finish a job: messages once and in order, dependencies and plan approval kept', async () => {
    const { runtime, store, calls, model } = fixtureRuntime((request) => reportTeamJob.reply(request));
    const team = await runtime.createTeam(reportTeamJob.options);
    const result = await team.result;
    expect(result).toMatchObject({
      status: 'completed',
      terminateReason: 'GOAL',
      output: 'The report is written.',
    });
    expect(result.tasks.map((task) => [task.id, task.status, task.owner])).toEqual([
      ['1', 'completed', 'alice'],
      ['2', 'completed', 'bob'],
      ['3', 'completed', 'carol'],
    ]);
    // Every message reached its addressee once, in the team's order.
    const received = await receivedByMember(store, team.state());
    for (const member of ['lead', 'alice', 'bob', 'carol']) {
      const sent = result.messages.filter((message) => message.to === member).map((message) => message.id);
      expect(received[member] ?? [], member).toEqual(sent);
    }
    // Dependencies: #2 was claimed only after #1 was completed, #3 after #2.
    await store.flush();
    const events = teamEventsOf((await store.loadJournal(team.id)).entries);
    const at = (id: string, status: string) =>
      events.findIndex(
        (event) => event.type === 'team.task.updated' && event.task.id === id && event.task.status === status,
      );
    expect(at('1', 'completed')).toBeLessThan(at('2', 'in_progress'));
    expect(at('2', 'completed')).toBeLessThan(at('3', 'in_progress'));
    // bob tried to claim #2 before #1 was completed, and was told why.
    const results = model.requests.flatMap((request) =>
      request.messages.flatMap((message) => (typeof message.content === 'string' ? [] : message.content)),
    );
    expect(
      results.some(
        (block) =>
          block.type === 'tool_result' &&
          block.is_error &&
          String(block.content).includes('#2 is blocked by #1'),
      ),
    ).toBe(true);
    expect(
      results.some(
        (block) =>
          block.type === 'tool_result' &&
          block.is_error &&
          String(block.content).includes('your plan is not approved'),
      ),
    ).toBe(true);
    // Plan approval: carol's first save was refused, her second (after approval) ran, once.
    expect(calls.filter((call) => call.tool === 'save').map((call) => call.input)).toEqual([
      { note: 'the report' },
    ]);
    const plan = events.findIndex((event) => event.type === 'team.plan.answered');
    expect(plan).toBeGreaterThan(-1);
    // The team's own task is stored and ended; its spells are tasks of the session.
    expect((await store.getTask(team.id))?.status).toBe('completed');
    expect(result.members.map((member) => member.name)).toEqual(['lead', 'alice', 'bob', 'carol']);
    expect(result.members.every((member) => member.spells >= 1)).toBe(true);
    await runtime.shutdown();
  });

  it('stops a ping-pong pair at the message limit with MESSAGE_LIMIT', async () => {
    const { runtime } = fixtureRuntime((request) => {
      const first = JSON.stringify(request.messages[0]!.content);
      if (!asksForAMove(request.messages.at(-1)!)) return textReply('sent');
      return toolReply('SendMessage', {
        to: first.includes('You are \\"ping\\"') ? 'pong' : 'ping',
        message: 'your turn',
      });
    });
    const team = await runtime.createTeam({
      lead: { agent: 'explore', name: 'ping' },
      prompt: 'Start the rally.',
      teammates: [{ name: 'pong', agent: 'explore' }],
      maxMessages: 6,
    });
    const result = await team.result;
    expect(result.status).toBe('failed');
    expect(result.terminateReason).toBe('MESSAGE_LIMIT');
    expect(result.message).toContain('message limit (6)');
    expect(result.messages).toHaveLength(6);
    expect((await runtime.find(team.id))?.status).toBe('failed');
    await runtime.shutdown();
  });

  it('answers a message to an unknown teammate, and a bad dependency, with an error result the agent sees', async () => {
    const { runtime, model } = fixtureRuntime((request) => {
      const results = request.messages.flatMap((message) =>
        typeof message.content === 'string'
          ? []
          : message.content.filter((block) => block.type === 'tool_result'),
      );
      if (results.length === 0) return toolReply('SendMessage', { to: 'zed', message: 'hi' });
      if (results.length === 1) return toolReply('TaskCreate', { subject: 'A', description: 'a' });
      if (results.length === 2) return toolReply('TaskUpdate', { taskId: '1', addBlockedBy: ['1'] });
      if (results.length === 3) return toolReply('TaskUpdate', { taskId: '1', addBlockedBy: ['9'] });
      return textReply('done');
    });
    const team = await runtime.createTeam({
      lead: 'explore',
      prompt: 'Go.',
      teammates: [{ name: 'amy', agent: 'explore' }],
    });
    const result = await team.result;
    expect(result.status).toBe('completed');
    const errors = model.requests
      .at(-1)!
      .messages.flatMap((message) => (typeof message.content === 'string' ? [] : message.content))
      .flatMap((block) => (block.type === 'tool_result' && block.is_error ? [String(block.content)] : []));
    expect(errors).toEqual([
      expect.stringContaining('There is no teammate named "zed"'),
      expect.stringContaining('Task #1 cannot depend on itself'),
      expect.stringContaining('Task #9 does not exist'),
    ]);
    expect(result.tasks[0]!.blockedBy).toEqual([]);
    await runtime.shutdown();
  });

  it('stops a team at its token budget with TOKEN_LIMIT', async () => {
    const { runtime } = fixtureRuntime((request) => {
      if (!asksForAMove(request.messages.at(-1)!)) return textReply('sent', { input: 40, output: 10 });
      const me = JSON.stringify(request.messages[0]!.content).includes('You are \\"ping\\"');
      return toolReply(
        'SendMessage',
        { to: me ? 'pong' : 'ping', message: 'again' },
        { usage: { input: 40, output: 10 } },
      );
    });
    const team = await runtime.createTeam({
      lead: { agent: 'explore', name: 'ping' },
      prompt: 'Rally.',
      teammates: [{ name: 'pong', agent: 'explore' }],
      tokenBudget: 500,
    });
    const result = await team.result;
    expect(result).toMatchObject({ status: 'failed', terminateReason: 'TOKEN_LIMIT' });
    expect(result.usage.total).toBeGreaterThanOrEqual(500);
    await runtime.shutdown();
  });

  it("ends failed with the lead's reason when the lead's last spell failed", async () => {
    const { runtime } = fixtureRuntime((request) => {
      if (JSON.stringify(request.messages[0]!.content).includes('You are \\"team-lead\\"'))
        return toolReply('TaskList', {});
      return textReply('idle');
    });
    const team = await runtime.createTeam({
      lead: 'explore',
      prompt: 'Loop.',
      teammates: [{ name: 'amy', agent: 'explore' }],
    });
    const result = await team.result;
    expect(result).toMatchObject({ status: 'failed', terminateReason: 'MAX_TURNS' });
    expect(result.message).toContain("The lead's last spell ended failed (MAX_TURNS)");
    await runtime.shutdown();
  });

  it('a member cannot reach another team', async () => {
    const { runtime } = fixtureRuntime((request) => {
      const results = request.messages.flatMap((message) =>
        typeof message.content === 'string'
          ? []
          : message.content.filter((block) => block.type === 'tool_result'),
      );
      const red = JSON.stringify(request.messages[0]!.content).includes('agent team \\"red\\"');
      return red && results.length === 0
        ? toolReply('SendMessage', { to: 'zed', message: 'hi' })
        : textReply('done');
    });
    const blue = await runtime.createTeam({
      name: 'blue',
      lead: 'explore',
      prompt: 'Wait.',
      teammates: [{ name: 'zed', agent: 'explore', prompt: 'Wait too.' }],
    });
    const red = await runtime.createTeam({
      name: 'red',
      lead: 'explore',
      prompt: 'Go.',
      teammates: [{ name: 'amy', agent: 'explore' }],
    });
    const [redResult, blueResult] = await Promise.all([red.result, blue.result]);
    expect(redResult.messages).toEqual([]);
    expect(blueResult.messages).toEqual([]);
    expect(blueResult.members.find((member) => member.name === 'zed')!.spells).toBe(1);
    await runtime.shutdown();
  });

  it('cancelling the team, or its session, stops every member', async () => {
    const hanging = (_request: unknown, { signal }: { signal: AbortSignal }) =>
      new Promise<never>((_resolve, reject) =>
        signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true }),
      );
    for (const how of ['team', 'session'] as const) {
      // Working members count against maxConcurrent like any task: two run, the third waits.
      const { runtime } = fixtureRuntime(hanging, { limits: { maxConcurrent: 2 } });
      const team = await runtime.createTeam({
        lead: 'explore',
        prompt: 'Go.',
        sessionKey: 's1',
        teammates: [
          { name: 'amy', agent: 'explore', prompt: 'Work.' },
          { name: 'ben', agent: 'explore', prompt: 'Work.' },
        ],
      });
      await settle();
      expect(runtime.list({ active: true, sessionKey: 's1' })).toHaveLength(3);
      expect(runtime.list({ status: 'running' })).toHaveLength(2);
      expect(runtime.list({ status: 'queued' })).toHaveLength(1);
      if (how === 'team') team.cancel('Enough.');
      else runtime.cancelSession('s1');
      const result = await team.result;
      expect(result.status, how).toBe('cancelled');
      expect(result.terminateReason).toBe('ABORTED');
      expect(runtime.list({ active: true })).toHaveLength(0);
      await runtime.shutdown();
    }
  });
});

describe('agent teams: restore and replay', () => {
  it('a team stopped mid-run is restored by a new runtime and finishes; its stored run replays exactly', async () => {
    const store = createMemoryStore();
    // The first runtime stops while bob works on #2 (after alice's "#1 done").
    const first = fixtureRuntime(
      (request, { signal }) =>
        memberOf(request) === 'bob' && receivedText(request).includes('#1 done')
          ? hang(signal)
          : reportTeamJob.reply(request),
      { store },
    );
    const team = await first.runtime.createTeam(reportTeamJob.options);
    await until(() =>
      first.model.requests.some(
        (request) => memberOf(request) === 'bob' && receivedText(request).includes('#1 done'),
      ),
    );
    const before = team.state();
    expect(before.ended).toBeUndefined();
    await first.runtime.shutdown({ keepTasks: true });

    const second = fixtureRuntime((request) => reportTeamJob.reply(request), { store });
    await second.runtime.restore();
    const restored = second.runtime.team(team.id);
    expect(restored).toBeDefined();
    const result = await restored!.result;
    expect(result).toMatchObject({
      status: 'completed',
      terminateReason: 'GOAL',
      output: 'The report is written.',
    });
    expect(result.tasks.map((task) => task.status)).toEqual(['completed', 'completed', 'completed']);
    // Nothing lost, nothing doubled: each member got each message addressed to it once, in order.
    const received = await receivedByMember(store, restored!.state());
    for (const member of ['lead', 'alice', 'bob', 'carol'])
      expect(received[member] ?? [], member).toEqual(
        result.messages.filter((message) => message.to === member).map((message) => message.id),
      );
    // The messages sent before the stop are still the first ones, unchanged.
    expect(result.messages.slice(0, before.messages.length)).toEqual(before.messages);
    expect([...first.calls, ...second.calls].filter((call) => call.tool === 'save')).toHaveLength(1);
    await second.runtime.shutdown();

    const replay = await replayTeam(store, team.id);
    expect(replay.differences).toEqual([]);
    expect(replay.matches).toBe(true);
    expect(replay.result).toEqual(result);
    expect(replay.spells.length).toBe(result.members.reduce((sum, member) => sum + member.spells, 0));
  });

  it('replay notices a team journal that does not match its spells', async () => {
    const { runtime, store } = fixtureRuntime((request) => reportTeamJob.reply(request));
    const team = await runtime.createTeam(reportTeamJob.options);
    await team.result;
    await runtime.shutdown();
    expect((await replayTeam(store, team.id)).matches).toBe(true);
    // A journal whose first message went to someone else: the interleaving no longer matches.
    const { entries } = await store.loadJournal(team.id);
    const tampered = createMemoryStore();
    for (const task of (await store.loadTasks()).tasks) {
      const journal = await store.loadJournal(task.spec.taskId);
      tampered.appendStatus(queuedRecord(task.spec));
      for (const entry of task.spec.taskId === team.id ? entries.map(swapFirstDelivery) : journal.entries)
        tampered.appendJournal(task.spec.taskId, entry);
      const snapshot = await store.loadSnapshot(task.spec.taskId);
      if (snapshot) tampered.saveSnapshot(task.spec.taskId, () => snapshot);
      if (task.result) {
        tampered.saveResult(resultDocument(task.result));
        tampered.appendStatus(finalRecord(task.result, task.updatedAt));
      }
    }
    const replay = await replayTeam(tampered, team.id);
    expect(replay.matches).toBe(false);
    expect(replay.differences.join('\n')).toContain('received messages');
  });
});

/** Moves the first spell started with messages onto other message ids. */
function swapFirstDelivery(entry: JournalEntry): JournalEntry {
  const event = entry.event as unknown as TeamEvent;
  if (event.type === 'team.spell.started' && event.messageIds.length)
    return { ...entry, event: { ...event, messageIds: ['m99'] } as unknown as JournalEntry['event'] };
  return entry;
}

async function until(test: () => boolean): Promise<void> {
  for (let round = 0; round < 200 && !test(); round++)
    await new Promise<void>((resolve) => setTimeout(resolve, 1));
  expect(test()).toBe(true);
}
