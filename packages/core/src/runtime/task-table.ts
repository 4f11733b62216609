import { isFinalStatus } from '../persistence/statuses.js';
import type { TaskStatus } from '../persistence/types.js';
import type { TaskInfo } from './task-info.js';
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

/**
 * @internal The runtime's index of its tasks: each task's {@link TaskRun} (which owns its status,
 * info and end) by id, in submission order (a `Map`: looking a run up runs no code of the table's),
 * with the lists and counts the runtime answers from it.
 */
export class TaskTable extends Map<string, TaskRun> {
  activeInSession(sessionKey: string): number {
    let count = 0;
    for (const run of this.values()) if (!run.result && run.spec.sessionKey === sessionKey) count++;
    return count;
  }

  /** Lets every unfinished task go without ending it (the runtime shut down keeping them). */
  detachAll(): void {
    for (const run of this.values()) run.detach();
  }

  info(id: string, now: number): TaskInfo | undefined {
    return this.get(id)?.info(now);
  }

  list(filter: TaskListFilter, now: number): TaskInfo[] {
    const statuses =
      filter.status === undefined
        ? undefined
        : new Set(typeof filter.status === 'string' ? [filter.status] : filter.status);
    const agent = filter.agent?.toLowerCase();
    const out: TaskInfo[] = [];
    const all = [...this.values()];
    for (let index = all.length - 1; index >= 0; index--) {
      const run = all[index]!;
      const status = run.status;
      if (statuses && !statuses.has(status)) continue;
      if (agent && run.spec.agent.toLowerCase() !== agent) continue;
      if (filter.sessionKey && run.spec.sessionKey !== filter.sessionKey) continue;
      if (filter.active && isFinalStatus(status)) continue;
      out.push(run.info(now));
      if (filter.limit && out.length >= filter.limit) break;
    }
    return out;
  }
}
