import {
  formatDuration,
  formatTokens,
  type RuntimeEventName,
  type TaskClient,
  type TaskEventBase,
  type TaskInfo,
  type TaskStatus,
} from '@troupe/core';
import { isFinalStatus } from '@troupe/core/store';

/** What the board shows of one task. */
export interface TaskView {
  taskId: string;
  agent: string;
  description: string;
  sessionKey: string;
  status: TaskStatus;
  toolCalls: number;
  turns: number;
  tokens: number;
  elapsedMs: number;
  terminateReason?: string;
  error?: string;
  /** Tool calls of this task the user denied (seen since this page loaded, or remembered). */
  denied?: string[];
}

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

/**
 * The CLI's progress line for a task: `[explore] Find auth code ... 5 tools, 3.2s` while it runs,
 * `[explore] Find auth code - done (5 tools, 3.2s, 1.2k tokens, 3 turns)` when it ended.
 */
export function taskLine(view: TaskView): string {
  const label = `[${view.agent}] ${view.description}`;
  const stats = `${plural(view.toolCalls, 'tool')}, ${formatDuration(view.elapsedMs)}`;
  const totals = `(${stats}, ${formatTokens(view.tokens)} tokens, ${plural(view.turns, 'turn')})`;
  switch (view.status) {
    case 'queued':
      return `${label} ... queued`;
    case 'running':
      return `${label} ... ${stats}`;
    case 'awaitingApproval':
      return `${label} ... ${stats} · waiting for approval`;
    case 'completed':
      return view.denied?.length
        ? `${label} - done, ${view.denied.join(', ')} denied ${totals}`
        : `${label} - done ${totals}`;
    case 'cancelled':
      return `${label} - cancelled ${totals}`;
    default:
      return `${label} - failed, ${view.terminateReason ?? 'ERROR'}${view.error ? `: ${view.error}` : ''} ${totals}`;
  }
}

function viewOf(info: TaskInfo): TaskView {
  return {
    taskId: info.id,
    agent: info.agent,
    description: info.description,
    sessionKey: info.sessionKey,
    status: info.status,
    toolCalls: info.toolCalls,
    turns: info.turns,
    tokens: info.tokens,
    elapsedMs: info.elapsedMs,
    ...(info.result ? { terminateReason: info.result.terminateReason } : {}),
    ...(info.result?.error ? { error: info.result.error.message } : {}),
  };
}

/** What the views read tasks from: their events, and (a local runtime) their live information. */
export type TaskSource = Pick<TaskClient, 'on'> & { get?(id: string): TaskInfo | undefined };

/**
 * Keeps one {@link TaskView} per task of a task client (the app's runtime, or any other), derived
 * from the client's own state: on every event of a task its view is read again from `get` (the
 * runtime's table: status, counters, result), so the board cannot disagree with the runtime; a
 * client without `get` falls back to the event's fields. While tasks run, {@link TaskViews.tick}
 * refreshes their timers. History ({@link TaskViews.addHistory}) fills in tasks not seen live.
 */
export class TaskViews {
  readonly views = new Map<string, TaskView>();
  private readonly listeners = new Set<(view: TaskView) => void>();
  private readonly stops: (() => void)[] = [];
  /** Denied tool calls by task id (from `approval.resolved` events, and remembered ones). */
  private readonly denials = new Map<string, string[]>();

  constructor(private readonly tasks: TaskSource) {
    const status: [RuntimeEventName, TaskStatus | undefined][] = [
      ['task.queued', 'queued'],
      ['task.started', 'running'],
      ['task.progress', undefined],
      ['tool.started', undefined],
      ['tool.finished', undefined],
      ['approval.requested', 'awaitingApproval'],
      ['approval.resolved', undefined],
      ['task.completed', 'completed'],
      ['task.failed', 'failed'],
      ['task.cancelled', 'cancelled'],
    ];
    for (const [name, next] of status) {
      this.stops.push(tasks.on(name, (event: unknown) => this.update(event as TaskEventBase, next)));
    }
    this.stops.push(
      tasks.on('approval.resolved', (event) => {
        if (event.decision !== 'deny') return;
        this.denials.set(event.taskId, [...(this.denials.get(event.taskId) ?? []), event.tool]);
        const view = this.views.get(event.taskId);
        if (view) this.publish({ ...view, denied: this.denials.get(event.taskId)! });
      }),
    );
  }

  /** Remembered denials (from before a reload): task id → denied tools. */
  addDenials(denials: ReadonlyMap<string, string[]>): void {
    for (const [taskId, tools] of denials) {
      this.denials.set(taskId, tools);
      const view = this.views.get(taskId);
      if (view) this.publish({ ...view, denied: tools });
    }
  }

  /**
   * Adds tasks from the client's history (`history()`, oldest first), before the ones seen
   * live: a task the views already know from an event keeps its fresher view.
   */
  addHistory(tasks: readonly TaskInfo[]): void {
    const live = [...this.views];
    this.views.clear();
    for (const info of tasks)
      if (!live.some(([id]) => id === info.id)) this.views.set(info.id, this.withDenials(viewOf(info)));
    for (const [id, view] of live) this.views.set(id, view);
    for (const view of this.views.values()) for (const listener of this.listeners) listener(view);
  }

  /** Reads every unfinished task again (its timer, its status): call it every second or so. */
  tick(): void {
    if (!this.tasks.get) return;
    for (const view of [...this.views.values()]) {
      if (isFinalStatus(view.status)) continue;
      const info = this.tasks.get(view.taskId);
      if (info) this.publish(this.withDenials(viewOf(info)));
    }
  }

  /** Calls `listener` with every view that changes; returns an unsubscribe function. */
  onChange(listener: (view: TaskView) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private withDenials(view: TaskView): TaskView {
    const denied = this.denials.get(view.taskId);
    return denied ? { ...view, denied } : view;
  }

  private publish(view: TaskView): void {
    this.views.set(view.taskId, view);
    for (const listener of this.listeners) listener(view);
  }

  private update(
    event: TaskEventBase & { result?: { terminateReason: string; error?: { message: string } } },
    next?: TaskStatus,
  ): void {
    const info = this.tasks.get?.(event.taskId);
    if (info) {
      this.publish(this.withDenials(viewOf(info)));
      return;
    }
    const previous = this.views.get(event.taskId);
    const view: TaskView = {
      taskId: event.taskId,
      agent: event.agent,
      description: event.description,
      sessionKey: event.sessionKey,
      status: next ?? previous?.status ?? 'running',
      toolCalls: event.toolCalls ?? previous?.toolCalls ?? 0,
      turns: event.turns ?? previous?.turns ?? 0,
      tokens: event.tokens ?? previous?.tokens ?? 0,
      elapsedMs: event.elapsedMs ?? previous?.elapsedMs ?? 0,
      ...(event.result ? { terminateReason: event.result.terminateReason } : {}),
      ...(event.result?.error ? { error: event.result.error.message } : {}),
    };
    // A resolved approval of a task that already ended must not bring its row back to running.
    if (previous && isFinalStatus(previous.status) && !isFinalStatus(view.status)) return;
    this.publish(this.withDenials(view));
  }

  /** Stops listening to the client. */
  dispose(): void {
    for (const stop of this.stops) stop();
  }
}
