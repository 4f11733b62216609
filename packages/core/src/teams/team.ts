import { TroupeError } from '../errors.js';
import type { Message } from '../model/types.js';
import { describeThrown } from '../persistence/plain-json.js';
import { finalRecord, queuedRecord, resultDocument, statusRecord } from '../persistence/task-documents.js';
import { transcriptOf } from '../persistence/transcript.js';
import type { TaskResult, TaskSpec } from '../persistence/types.js';
import { deliveredIds, formatMessages, idsInText, spellPrompt } from './mailbox.js';
import {
  describeTask,
  describeTaskList,
  findTask,
  newTask,
  type TaskCreateInput,
  type TaskUpdateInput,
  updateTask,
} from './task-list.js';
import { teamJournalEntry, teamResultOf, teamTaskResult } from './team-documents.js';
import type { TeamEvent } from './team-events.js';
import type { TeamRuntime } from './team-runtime.js';
import { applyTeamEvent, initialTeamState, type MemberState, type TeamState } from './team-state.js';
import type { SendMessageInput, TeamToolTarget } from './team-tools.js';
import type { TeamConfig, TeamResult, TeamTerminateReason } from './team-types.js';

/** An error result a team tool answers with: the agent sees the message. */
class TeamToolError extends Error {
  override name = 'TeamToolError';
}

/**
 * One team: its journal (the team task's) and the state folded from it, its members' spells, its
 * mailbox and task list. Every change is an event journaled first and folded by `applyTeamEvent`
 * (the one place the state changes); spells are tasks of the runtime (`TeamRuntime`). See
 * `docs/decisions/2026-11-26-agent-teams.md`.
 */
export class Team implements TeamToolTarget {
  readonly id: string;
  readonly result: Promise<TeamResult>;
  private state: TeamState;
  private seq: number;
  private readonly runtime: TeamRuntime;
  private resolve!: (result: TeamResult) => void;
  private readonly listeners = new Set<(event: TeamEvent, state: TeamState) => void>();
  /** Members whose next spell is being prepared (their conversation read): their messages wait. */
  private readonly waking = new Set<string>();
  /** Spells that ended and are being settled. */
  private readonly ending = new Set<string>();
  /** Conversations of ended spells, by task id (the next spell starts from its member's last). */
  private readonly conversations = new Map<string, Message[]>();
  private readonly startedAt: number;
  private finished = false;
  /** The runtime let the team go (shut down keeping tasks): nothing more is journaled. */
  private detached = false;

  constructor(
    runtime: TeamRuntime,
    teamId: string,
    config: TeamConfig,
    events: readonly TeamEvent[] = [],
    startedAt?: number,
  ) {
    this.runtime = runtime;
    this.id = teamId;
    this.startedAt = startedAt ?? runtime.clock.now();
    let state = initialTeamState(teamId, config);
    for (const event of events) state = applyTeamEvent(state, event);
    this.state = state;
    this.seq = events.length;
    this.result = new Promise((resolve) => {
      this.resolve = resolve;
    });
  }

  /** The team's state now (a value). */
  get snapshot(): TeamState {
    return this.state;
  }

  /** Calls `listener` with each event the team journals and the state it led to. Returns an unsubscribe. */
  subscribe(listener: (event: TeamEvent, state: TeamState) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Records the team's task (its spec holds the config) and wakes the members that have a prompt.
   * `recorded`: the task is stored as queued already (a cluster client queued it), only its start is.
   */
  start(spec: TaskSpec, recorded = false): void {
    const store = this.runtime.store;
    if (!recorded) this.persist(() => store.appendStatus(queuedRecord(spec)));
    this.persist(() => store.appendStatus(statusRecord(this.id, 'task.started', this.runtime.clock.now())));
    for (const member of this.state.config.members) if (member.prompt) this.wake(member.name);
  }

  /** A message from the host to a member (`from: 'host'`), delivered like a teammate's. */
  post(to: string, text: string): void {
    if (!this.state.members[to]) throw new TroupeError('VALIDATION_FAILED', this.unknownMember(to));
    if (this.state.ended) throw new TroupeError('TASK_ENDED', `Team ${this.id} has ended.`);
    this.accept({ type: 'team.message', at: this.now(), from: 'host', to: [to], text });
  }

  /** Cancels the team: every spell is cancelled, the team ends `cancelled`. */
  cancel(reason = 'The team was cancelled.'): void {
    this.end('cancelled', 'ABORTED', reason);
  }

  /** Stops following the runtime (it shut down keeping its tasks): the team stays unfinished in the store. */
  detach(): void {
    this.detached = true;
  }

  /**
   * The runtime shuts down and cancels every task: the team ends `cancelled` now, with what its
   * journal holds (its spells' last usage is theirs to record), and follows nothing more.
   */
  shutdown(): void {
    if (!this.state.ended) this.end('cancelled', 'ABORTED', 'The runtime shut down.');
    if (!this.finished) this.finish();
    this.detached = true;
  }

  // ── the team tools ────────────────────────────────────────────────────────────────────────

  sendMessage(from: string, key: string, input: SendMessageInput): string {
    const repeat = this.state.answers[key];
    if (repeat !== undefined) return repeat;
    this.assertActive();
    const { to, message } = input;
    if (typeof message === 'object') {
      if (from !== this.state.config.lead)
        throw new TeamToolError(`Only the lead (${this.state.config.lead}) answers plan approval requests.`);
      const request = this.state.plans[message.request_id];
      if (!request || request.member !== to)
        throw new TeamToolError(`${to} has no plan approval request "${message.request_id}".`);
      this.countMessages(from, to, 1);
      const answer = `Plan ${message.request_id} of ${to} ${message.approve ? 'approved' : 'rejected'}.`;
      this.accept({
        type: 'team.plan.answered',
        at: this.now(),
        from,
        requestId: message.request_id,
        approve: message.approve,
        ...(message.feedback ? { feedback: message.feedback } : {}),
        key,
        answer,
      });
      return answer;
    }
    const recipients = to === '*' ? Object.keys(this.state.members).filter((name) => name !== from) : [to];
    if (to !== '*' && !this.state.members[to]) throw new TeamToolError(this.unknownMember(to));
    if (to === from) throw new TeamToolError('You cannot send a message to yourself.');
    for (const name of recipients)
      if (this.exhausted(this.state.members[name]!))
        throw new TeamToolError(`${name} has used its token budget and takes no more messages.`);
    this.countMessages(from, to, recipients.length);
    const first = this.state.messages.length + 1;
    const ids = recipients.map((_, index) => `m${first + index}`);
    const answer = `Message sent to ${to === '*' ? `every teammate (${recipients.join(', ')})` : to} (${ids.join(', ')}).`;
    this.accept({
      type: 'team.message',
      at: this.now(),
      from,
      to: recipients,
      text: message,
      ...(input.summary ? { summary: input.summary } : {}),
      key,
      answer,
    });
    return answer;
  }

  createTask(by: string, key: string, input: TaskCreateInput): string {
    const repeat = this.state.answers[key];
    if (repeat !== undefined) return repeat;
    this.assertActive();
    const task = newTask(this.state, by, input);
    const answer = `Task #${task.id} created: ${task.subject}`;
    this.accept({ type: 'team.task.created', at: this.now(), task, key, answer });
    return answer;
  }

  updateTask(by: string, key: string, input: TaskUpdateInput): string {
    const repeat = this.state.answers[key];
    if (repeat !== undefined) return repeat;
    this.assertActive();
    const update = updateTask(this.state, by, { ...input, taskId: input.taskId.replace(/^#/, '') });
    if ('error' in update) throw new TeamToolError(update.error);
    const { task, blocked } = update;
    const answer = `Task #${task.id} updated: [${task.status}] ${task.subject}${task.owner ? ` owner: ${task.owner}` : ''}`;
    this.accept({
      type: 'team.task.updated',
      at: this.now(),
      task,
      ...(blocked.length ? { blocked } : {}),
      key,
      answer,
    });
    return answer;
  }

  listTasks(): string {
    return describeTaskList(this.state);
  }

  getTask(id: string): string {
    const task = findTask(this.state, id);
    if (!task)
      throw new TeamToolError(
        `Task #${id.replace(/^#/, '')} does not exist. Call TaskList to see the tasks.`,
      );
    return describeTask(this.state, task);
  }

  requestPlanApproval(member: string, key: string, plan: string): string {
    const repeat = this.state.answers[key];
    if (repeat !== undefined) return repeat;
    this.assertActive();
    if (this.state.members[member]?.planApproved) return 'Your plan is already approved: go on.';
    this.countMessages(member, this.state.config.lead, 1);
    const requestId = `p${Object.keys(this.state.plans).length + 1}`;
    const answer = `Plan sent to the lead for approval (request ${requestId}). Wait for its answer before using write or execute tools.`;
    this.accept({ type: 'team.plan.requested', at: this.now(), member, plan, key, answer });
    return answer;
  }

  /** Whether member `name` may use write and execute tools (its plan approved, if it needs one). */
  mayWrite(name: string): boolean {
    return this.state.members[name]?.planApproved ?? false;
  }

  // ── spells ────────────────────────────────────────────────────────────────────────────────

  /**
   * After a restore: follows the spells the journal says are running (restored by the runtime, or
   * started again when the store never got them), steers again the messages a crash kept from a
   * spell, cancels spells the journal never recorded, and goes on.
   */
  async resume(orphans: readonly string[]): Promise<void> {
    for (const id of orphans)
      this.runtime.cancel(id, `Task ${id} is not a spell of team ${this.id}'s journal.`);
    for (const member of Object.values(this.state.members)) {
      const spell = member.spell;
      if (!spell) continue;
      const stored = await this.runtime.store.getTask(spell);
      if (!stored) {
        // Journaled as started, lost before the store had it: start it again, the same spell.
        const history = member.lastSpell ? await this.conversationOf(member.lastSpell) : undefined;
        this.launch(member.name, spell, member.started, member.spells === 1, history);
        continue;
      }
      if (this.runtime.liveStatus(spell) !== undefined && member.steered.length) {
        const { entries } = await this.runtime.store.loadJournal(spell);
        const seen = new Set(
          entries.flatMap((entry) =>
            entry.event.type === 'task.steered' ? idsInText(entry.event.text) : [],
          ),
        );
        const missing = member.steered.filter((id) => !seen.has(id));
        if (missing.length) this.steer(spell, missing);
      }
      this.follow(member.name, spell, this.runtime.result(spell));
    }
    if (this.state.ended) {
      this.stopSpells(this.state.ended.message ?? 'The team ended.');
      this.finishIfSettled();
      return;
    }
    this.deliverAll();
    this.checkQuiet();
  }

  private wake(name: string): void {
    if (this.waking.has(name) || this.state.ended || this.detached) return;
    const member = this.state.members[name];
    if (!member || member.status === 'working' || this.exhausted(member)) return;
    this.waking.add(name);
    const last = member.lastSpell;
    const history = last ? this.conversationOf(last) : Promise.resolve(undefined);
    history
      .then((messages) => {
        this.waking.delete(name);
        const now = this.state.members[name]!;
        if (this.state.ended || this.detached || now.status === 'working') return this.finishIfSettled();
        const first = now.spells === 0;
        const ids = [...now.inbox];
        if (!first && ids.length === 0) return this.checkQuiet();
        const taskId = `${this.id}-${name}-${now.spells + 1}`;
        this.accept({ type: 'team.spell.started', at: this.now(), member: name, taskId, messageIds: ids });
        this.launch(name, taskId, ids, first, messages);
      })
      .catch((error: unknown) => {
        this.waking.delete(name);
        this.end(
          'failed',
          'ERROR',
          `Team ${this.id}: ${name}'s conversation could not be read: ${describeThrown(error)}.`,
        );
      });
  }

  private launch(
    name: string,
    taskId: string,
    ids: readonly string[],
    first: boolean,
    history: Message[] | undefined,
  ): void {
    const config = this.state.config.members.find((member) => member.name === name)!;
    const prompt = spellPrompt(this.state, name, first, ids) || 'Go on with your work.';
    const tokenBudget = this.spellBudget(name, config.agent);
    try {
      const handle = this.runtime.spawnInternal({
        agent: config.agent,
        prompt,
        description: `${name} (team ${this.state.config.name})`.slice(0, 80),
        sessionKey: this.state.config.sessionKey,
        background: true,
        ...(tokenBudget !== undefined ? { limits: { tokenBudget } } : {}),
        ...(history?.length ? { history } : {}),
        team: { teamId: this.id, member: name },
        taskId,
      });
      this.follow(name, taskId, handle.result);
    } catch (error) {
      const message = `Team ${this.id}: ${name}'s spell could not start: ${describeThrown(error)}`;
      this.accept({
        type: 'team.spell.ended',
        at: this.now(),
        member: name,
        taskId,
        status: 'failed',
        terminateReason: 'ERROR',
        usage: { input: 0, output: 0 },
      });
      this.end('failed', 'ERROR', message);
    }
  }

  /** A spell's token budget: its agent's, capped by what its member and the team have left. */
  private spellBudget(name: string, agent: string): number | undefined {
    const member = this.state.members[name]!;
    const own = this.state.config.members.find((candidate) => candidate.name === name)?.tokenBudget;
    const teamLeft = this.state.config.tokenBudget - (this.state.usage.input + this.state.usage.output);
    const memberLeft = own === undefined ? Number.POSITIVE_INFINITY : own - member.tokens;
    const agentBudget = this.runtime.agents.get(agent)?.tokenBudget ?? this.runtime.limits.tokenBudget;
    const budget = Math.min(agentBudget, teamLeft, memberLeft);
    return budget < agentBudget ? Math.max(1, Math.floor(budget)) : undefined;
  }

  private follow(name: string, taskId: string, result: Promise<TaskResult | undefined>): void {
    result.then(
      (outcome) => this.spellEnded(name, taskId, outcome),
      (error: unknown) =>
        this.end(
          'failed',
          'ERROR',
          `Team ${this.id}: spell ${taskId} could not be read: ${describeThrown(error)}.`,
        ),
    );
  }

  private async spellEnded(name: string, taskId: string, result: TaskResult | undefined): Promise<void> {
    if (this.detached || this.state.members[name]?.spell !== taskId || this.ending.has(taskId)) return;
    this.ending.add(taskId);
    let conversation: Message[] = [];
    try {
      conversation = await this.conversationOf(taskId);
    } catch (error) {
      this.warnPersistence(
        `Team ${this.id}: the conversation of spell ${taskId} could not be read (${describeThrown(error)}); the messages steered into it count as delivered.`,
        this.id,
      );
    }
    this.ending.delete(taskId);
    if (this.detached) return;
    const member = this.state.members[name]!;
    const seen = new Set(deliveredIds(conversation));
    const returned = conversation.length ? member.steered.filter((id) => !seen.has(id)) : [];
    const usage = result
      ? { input: result.usage.input, output: result.usage.output }
      : { input: 0, output: 0 };
    this.accept({
      type: 'team.spell.ended',
      at: this.now(),
      member: name,
      taskId,
      status: result?.status ?? 'failed',
      terminateReason: result?.terminateReason ?? 'ERROR',
      usage,
      ...(name === this.state.config.lead && result?.output !== undefined ? { output: result.output } : {}),
      ...(returned.length ? { returned } : {}),
    });
    if (!this.state.ended) {
      if (result?.status === 'cancelled')
        this.end(
          'cancelled',
          'ABORTED',
          `${name}'s spell ${taskId} was cancelled${result.error ? `: ${result.error.message}` : ''}.`,
        );
      else if (this.state.usage.input + this.state.usage.output >= this.state.config.tokenBudget)
        this.end(
          'failed',
          'TOKEN_LIMIT',
          `The team used its token budget (${this.state.config.tokenBudget} tokens); its members were stopped.`,
        );
    }
    if (this.state.ended) return this.finishIfSettled();
    this.deliverAll();
    this.checkQuiet();
  }

  /** Delivers every member's waiting messages: steered into a running spell, or a new spell. */
  private deliverAll(): void {
    for (const member of Object.values(this.state.members))
      if (member.inbox.length) this.deliver(member.name);
  }

  private deliver(name: string): void {
    if (this.state.ended || this.detached || this.waking.has(name)) return;
    const member = this.state.members[name]!;
    if (!member.inbox.length) return;
    if (member.status === 'idle') {
      this.wake(name);
      return;
    }
    const spell = member.spell!;
    // A spell that ended and is being settled: its member wakes again with these messages.
    if (this.ending.has(spell) || this.runtime.liveStatus(spell) === undefined) return;
    const ids = [...member.inbox];
    this.accept({ type: 'team.delivered', at: this.now(), member: name, taskId: spell, messageIds: ids });
    this.steer(spell, ids);
  }

  private steer(spell: string, ids: readonly string[]): void {
    try {
      this.runtime.steer(spell, formatMessages(this.state, ids));
    } catch {
      // It ended meanwhile: the messages it did not see go back to its member when it is settled.
    }
  }

  private checkQuiet(): void {
    if (this.state.ended || this.detached || this.waking.size || this.ending.size) return;
    const members = Object.values(this.state.members);
    if (members.some((member) => member.status === 'working')) return;
    const waiting = members.filter((member) => member.inbox.length);
    if (waiting.some((member) => !this.exhausted(member))) return;
    if (waiting.length)
      this.end(
        'failed',
        'TOKEN_LIMIT',
        `${waiting.map((member) => member.name).join(', ')} used ${waiting.length === 1 ? 'its' : 'their'} token budget with messages waiting.`,
      );
    else if (this.state.leadEnd && this.state.leadEnd.status !== 'completed')
      this.end(
        'failed',
        this.state.leadEnd.terminateReason,
        `The lead's last spell ended ${this.state.leadEnd.status} (${this.state.leadEnd.terminateReason}), and no member works.`,
      );
    else this.end('completed', 'GOAL');
  }

  private end(
    status: 'completed' | 'failed' | 'cancelled',
    terminateReason: TeamTerminateReason,
    message?: string,
  ): void {
    if (this.state.ended || this.detached) return;
    this.accept({
      type: 'team.ended',
      at: this.now(),
      status,
      terminateReason,
      ...(message ? { message } : {}),
    });
    this.stopSpells(message ?? 'The team ended.');
    this.finishIfSettled();
  }

  private stopSpells(reason: string): void {
    for (const member of Object.values(this.state.members))
      if (member.spell && this.runtime.liveStatus(member.spell) !== undefined)
        this.runtime.cancel(member.spell, reason);
  }

  private finishIfSettled(): void {
    if (this.finished || this.detached || !this.state.ended || this.waking.size || this.ending.size) return;
    if (Object.values(this.state.members).some((member) => member.status === 'working')) return;
    this.finish();
  }

  private finish(): void {
    this.finished = true;
    const result = teamResultOf(this.state);
    const taskResult = teamTaskResult(result, this.runtime.clock.now() - this.startedAt);
    const store = this.runtime.store;
    this.persist(() => store.saveResult(resultDocument(taskResult)));
    this.persist(() => store.appendStatus(finalRecord(taskResult, this.runtime.clock.now())));
    this.resolve(result);
  }

  /** Journals `event`, folds it into the state, then delivers what it left waiting. */
  private accept(event: TeamEvent): void {
    this.journal(event);
    if (
      event.type === 'team.message' ||
      event.type === 'team.plan.requested' ||
      event.type === 'team.plan.answered'
    )
      this.deliverAll();
  }

  private journal(event: TeamEvent): void {
    if (this.detached) return;
    const entry = teamJournalEntry(this.seq++, event);
    this.persist(() => this.runtime.store.appendJournal(this.id, entry));
    this.state = applyTeamEvent(this.state, event);
    for (const listener of this.listeners) {
      try {
        listener(event, this.state);
      } catch {
        // A listener's failure is its own; the team goes on.
      }
    }
  }

  private async conversationOf(taskId: string): Promise<Message[]> {
    const cached = this.conversations.get(taskId);
    if (cached) return cached;
    const store = this.runtime.store;
    await store.flush();
    const stored = await store.getTask(taskId);
    if (!stored) return [];
    const [snapshot, journal] = await Promise.all([store.loadSnapshot(taskId), store.loadJournal(taskId)]);
    const messages = transcriptOf(stored.spec, snapshot, journal.entries);
    this.conversations.set(taskId, messages);
    return messages;
  }

  private countMessages(from: string, to: string, count: number): void {
    const limit = this.state.config.maxMessages;
    if (this.state.messages.length + count <= limit) return;
    const message = `The team's message limit (${limit}) was reached: ${from}'s message to ${to} would exceed it. The team stopped (two members messaging each other in a loop?).`;
    this.end('failed', 'MESSAGE_LIMIT', message);
    throw new TeamToolError(message);
  }

  private exhausted(member: MemberState): boolean {
    const own = this.state.config.members.find((candidate) => candidate.name === member.name)?.tokenBudget;
    return own !== undefined && member.tokens >= own;
  }

  private assertActive(): void {
    const ended = this.state.ended;
    if (ended)
      throw new TeamToolError(
        `The team has ended (${ended.terminateReason}${ended.message ? `: ${ended.message}` : ''}).`,
      );
  }

  private unknownMember(name: string): string {
    return `There is no teammate named "${name}" in team "${this.state.config.name}": its members are ${Object.keys(this.state.members).join(', ')} (or "*" for all).`;
  }

  private persist(write: () => void): void {
    try {
      write();
    } catch (error) {
      this.warnPersistence(
        `The store could not record a change of team ${this.id}: ${describeThrown(error)}. The team goes on.`,
        this.id,
      );
    }
  }

  private now(): number {
    return this.runtime.clock.now();
  }

  private warnPersistence(message: string, taskId: string): void {
    this.runtime.report('runtime.warning', { code: 'PERSISTENCE_FAILED', message, taskId });
  }
}
