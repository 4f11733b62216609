import type { AnyActorLogic } from 'xstate';
import type { TaskEventBase } from '../events.js';
import { isFinalStatus } from '../persistence/statuses.js';
import type { TaskResult, TaskSpec, TaskStatus } from '../persistence/types.js';
import { type TaskInfo, taskEventBase, taskInfoOf } from './task-info.js';
import type { TaskRun } from './task-run.js';

/** Filter of `runtime.list`. */
export interface TaskListFilter {
  status?: TaskStatus | readonly TaskStatus[];
  agent?: string;
  sessionKey?: string;
  /** Only queued and running tasks. */
  active?: boolean;
  /** At most this many, newest first. */
  limit?: number;
}

/** @internal One task as the runtime tracks it. */
export interface TaskEntry {
  spec: TaskSpec;
  run: TaskRun | undefined;
  result: TaskResult | undefined;
  endedAt: number | undefined;
  promise: Promise<TaskResult>;
  resolve: (result: TaskResult) => void;
  /**
   * Where a task starts from other than its spec: a restored task (recorded `task.resumed`), or a
   * fork's first start (`forked`: its journal was copied, so it is recorded `task.started`).
   */
  restore: { logic: AnyActorLogic | undefined; journalLength: number; forked?: boolean } | undefined;
  /** Steering messages for a task that has not started: given to it as it starts. */
  steering?: string[];
  /** Frozen info of a finished task. */
  info?: TaskInfo;
}

/** @internal The runtime's index of tasks: by id, in submission order. */
export class TaskTable {
  private readonly entries = new Map<string, TaskEntry>();

  add(spec: TaskSpec, restore?: TaskEntry['restore']): TaskEntry {
    let resolve!: (result: TaskResult) => void;
    const promise = new Promise<TaskResult>((done) => {
      resolve = done;
    });
    const entry: TaskEntry = {
      spec,
      run: undefined,
      result: undefined,
      endedAt: undefined,
      promise,
      resolve,
      restore,
    };
    this.entries.set(spec.taskId, entry);
    return entry;
  }

  get(id: string): TaskEntry | undefined {
    return this.entries.get(id);
  }

  /** Removes a task; false if unknown. */
  remove(id: string): boolean {
    return this.entries.delete(id);
  }

  /**
   * Ends a task with `result` at `at`: freezes its info, resolves its promise, and returns the
   * fields of its final event (its run's counters as they ended). Undefined for a task it does not
   * hold or that ended already.
   */
  settle(id: string, result: TaskResult, at: number): TaskEventBase | undefined {
    const entry = this.entries.get(id);
    if (!entry || entry.result) return undefined;
    const run = entry.run;
    const base = run ? run.base() : taskEventBase(entry.spec, at);
    entry.result = result;
    entry.endedAt = at;
    entry.restore = undefined;
    entry.run = undefined;
    if (run) entry.info = infoFromRun(entry, run, at);
    entry.resolve(result);
    return base;
  }

  activeInSession(sessionKey: string): number {
    let count = 0;
    for (const entry of this.entries.values())
      if (!entry.result && entry.spec.sessionKey === sessionKey) count++;
    return count;
  }

  detachAll(): void {
    for (const entry of this.entries.values()) {
      entry.run?.detach();
      entry.run = undefined;
    }
  }

  eventBase(spec: TaskSpec, at: number): TaskEventBase {
    return taskEventBase(spec, at);
  }

  info(id: string, now: number): TaskInfo | undefined {
    const entry = this.entries.get(id);
    if (!entry) return undefined;
    if (entry.info) return entry.info;
    return entry.run ? infoFromRun(entry, entry.run, now) : baseInfo(entry);
  }

  list(filter: TaskListFilter, now: number): TaskInfo[] {
    const statuses =
      filter.status === undefined
        ? undefined
        : new Set(typeof filter.status === 'string' ? [filter.status] : filter.status);
    const agent = filter.agent?.toLowerCase();
    const out: TaskInfo[] = [];
    const all = [...this.entries.values()];
    for (let index = all.length - 1; index >= 0; index--) {
      const entry = all[index]!;
      const status = statusOf(entry);
      if (statuses && !statuses.has(status)) continue;
      if (agent && entry.spec.agent.toLowerCase() !== agent) continue;
      if (filter.sessionKey && entry.spec.sessionKey !== filter.sessionKey) continue;
      if (filter.active && isFinalStatus(status)) continue;
      out.push(this.info(entry.spec.taskId, now)!);
      if (filter.limit && out.length >= filter.limit) break;
    }
    return out;
  }
}

/**
 * A task's status, derived and never stored: from its result once it ended, else from its run
 * (its live actor's state), else queued (waiting for a slot).
 */
function statusOf(entry: TaskEntry): TaskStatus {
  if (entry.result) return entry.result.status;
  return entry.run ? entry.run.liveStatus : 'queued';
}

function baseInfo(entry: TaskEntry): TaskInfo {
  return taskInfoOf(entry.spec, { status: statusOf(entry), result: entry.result, endedAt: entry.endedAt });
}

function infoFromRun(entry: TaskEntry, run: TaskRun, now: number): TaskInfo {
  const progress = run.progress(now);
  if (!progress) return baseInfo(entry);
  return taskInfoOf(
    entry.spec,
    { status: statusOf(entry), result: entry.result, endedAt: entry.endedAt },
    progress,
  );
}
