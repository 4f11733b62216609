import type { TaskStore, TeamState } from '@troupe/core';
import type { loadTeamHosting } from '@troupe/core/internal';
import {
  MAX_CONTROL_BYTES,
  type TeamCallMessage,
  type TeamCallMethod,
  type TeamReplyMessage,
} from './channels.js';

/** The team modules a worker loads at its first team (`loadTeamHosting`). */
export type TeamHosting = Awaited<ReturnType<typeof loadTeamHosting>>;

/** How long a call waits for the hosting worker's reply before it reads the journal and asks again. */
const CALL_RETRY_MS = 2_000;

/** What a {@link RemoteTeam} needs of its worker. */
export interface RemoteTeamHost {
  readonly workerId: string;
  readonly store: TaskStore;
  /** Sends a control message (a call) to every worker. */
  send(message: TeamCallMessage): Promise<void>;
  /** Resolves with the reply to call `callId`, or undefined after `ms`. */
  reply(callId: string, ms: number): Promise<TeamReplyMessage | undefined>;
  stopped(): boolean;
}

/**
 * A team another worker hosts, as the spells of its members that run on this worker see it: its
 * state is the fold of its journal, read from the store (`refresh`); `TaskList` and `TaskGet`
 * answer from it, and the calls that change the team go to the hosting worker over the control
 * channel. A call is keyed (`<spell id>:<tool_use id>`) and its answer journaled with the change, so
 * a call whose reply is lost (the host died, a notification missed) is answered from the journal,
 * or asked again of the next host: it takes effect once.
 */
export class RemoteTeam {
  private state: TeamState;
  private folded = 0;
  private reading: Promise<void> | undefined;

  constructor(
    private readonly kit: TeamHosting,
    readonly teamId: string,
    config: TeamState['config'],
    private readonly host: RemoteTeamHost,
  ) {
    this.state = kit.initialTeamState(teamId, config);
  }

  /** The team's state as last read from the store. */
  get snapshot(): TeamState {
    return this.state;
  }

  /** Folds what the team's journal gained since the last read (one read at a time). */
  refresh(): Promise<void> {
    this.reading ??= this.read().finally(() => {
      this.reading = undefined;
    });
    return this.reading;
  }

  /** Whether `member` may use write tools (its plan approved), as of the last read. */
  mayWrite(member: string): boolean {
    return this.state.members[member]?.planApproved ?? false;
  }

  sendMessage(from: string, key: string, input: unknown): Promise<string> {
    return this.call('sendMessage', from, key, input);
  }

  createTask(by: string, key: string, input: unknown): Promise<string> {
    return this.call('createTask', by, key, input);
  }

  updateTask(by: string, key: string, input: unknown): Promise<string> {
    return this.call('updateTask', by, key, input);
  }

  requestPlanApproval(member: string, key: string, plan: string): Promise<string> {
    return this.call('requestPlanApproval', member, key, plan);
  }

  async listTasks(): Promise<string> {
    await this.refresh();
    return this.kit.describeTaskList(this.state);
  }

  async getTask(id: string): Promise<string> {
    await this.refresh();
    const task = this.kit.findTask(this.state, id);
    if (!task)
      throw new Error(`Task #${id.replace(/^#/, '')} does not exist. Call TaskList to see the tasks.`);
    return this.kit.describeTask(this.state, task);
  }

  private async call(method: TeamCallMethod, member: string, key: string, input: unknown): Promise<string> {
    const message: Omit<TeamCallMessage, 'callId'> = {
      type: 'teamCall',
      teamId: this.teamId,
      worker: this.host.workerId,
      method,
      member,
      key,
      input,
    };
    if (Buffer.byteLength(JSON.stringify(message)) > MAX_CONTROL_BYTES - 100)
      throw new Error(
        `${method}: the call is ${Buffer.byteLength(JSON.stringify(input))} bytes; between cluster workers a team tool call carries at most about ${MAX_CONTROL_BYTES - 600} bytes (one Postgres notification). Send a shorter one.`,
      );
    for (;;) {
      await this.refresh();
      const recorded = this.state.answers[key];
      if (recorded !== undefined) return recorded;
      const ended = this.state.ended;
      if (ended)
        throw new Error(
          `The team has ended (${ended.terminateReason}${ended.message ? `: ${ended.message}` : ''}).`,
        );
      if (this.host.stopped())
        throw new Error(
          `Team ${this.teamId}: worker ${this.host.workerId} is stopping; the call was not made.`,
        );
      const callId = `${key}#${Math.random().toString(36).slice(2, 10)}`;
      const reply = this.host.reply(callId, CALL_RETRY_MS);
      await this.host.send({ ...message, callId });
      const answered = await reply;
      // No reply (no worker hosts the team right now, or the notification was lost): read the
      // journal, then ask again.
      if (!answered) continue;
      if (answered.error !== undefined) throw new Error(answered.error);
      if (answered.answer !== undefined) return answered.answer;
    }
  }

  private async read(): Promise<void> {
    const { entries } = await this.host.store.loadJournal(this.teamId);
    const events = this.kit.teamEventsOf(entries);
    let state = this.state;
    for (const event of events.slice(this.folded)) state = this.kit.applyTeamEvent(state, event);
    this.folded = Math.max(this.folded, events.length);
    this.state = state;
  }
}
