import type { TaskStore } from '@troupe/core';
import { feedJournal, type JournalFeed } from '@troupe/core/internal';
import { machineInputFromSpec } from '@troupe/core/store';
import type { InspectionEvent } from 'xstate';
import { createRecorder } from '../timeline/recorder.js';
import type { TimelineHeader, TimelineRecord } from '../timeline/types.js';

/** Options of {@link followStoredTask}. */
export interface FollowTaskOptions {
  /** Each record as it is made (to a relay). */
  onRecord: (record: TimelineRecord) => void;
  /** Exact secret values to redact (see `createRedactor`). */
  secrets?: readonly (string | undefined)[];
  /** Named in the timeline's header. */
  storeName?: string;
}

/** A stored task followed as its journal grows; see {@link followStoredTask}. */
export interface TaskFollower {
  /** The header of the timeline the records belong to (`source.kind` is `replay`). */
  readonly header: TimelineHeader;
  /** Journal entries replayed so far. */
  readonly replayed: number;
  /** True once the replay reached a final state. */
  readonly done: boolean;
  /**
   * Reads the journal and replays the entries not replayed yet; resolves to how many were new.
   * Calls run one after another. A task the store does not hold yet replays nothing (try later).
   * Rejects with a `PERSISTENCE_VERSION` error on an entry of another schema version.
   */
  catchUp(): Promise<number>;
  /** Stops the replay's actor. */
  stop(): void;
}

/**
 * Follows a task that runs somewhere else (another process, a cluster worker) through its store:
 * each `catchUp` feeds the journal entries written since the last one through the task's machine,
 * as `replayTask` does (no model, no tool, no network), and records the inspection events, stamped
 * with the time of each journal event. The records form one timeline, which grows as the task
 * runs: what `troupe run --postgres --inspect` streams to the offline inspector.
 */
export function followStoredTask(store: TaskStore, taskId: string, options: FollowTaskOptions): TaskFollower {
  let at = 0;
  const recorder = createRecorder({
    source: { kind: 'replay', taskId, ...(options.storeName ? { store: options.storeName } : {}) },
    now: () => at,
    keep: false,
    ...(options.secrets ? { secrets: options.secrets } : {}),
  });
  recorder.subscribe(options.onRecord);
  const inspect = (event: InspectionEvent) => {
    if (event.type === '@xstate.event') {
      const time = (event.event as { at?: unknown }).at;
      if (typeof time === 'number') at = time;
    }
    recorder.inspect.next?.(event);
  };
  let feed: JournalFeed | undefined;
  let stopped = false;
  let queue: Promise<number> = Promise.resolve(0);

  const step = async (): Promise<number> => {
    if (stopped || (feed && !feed.active)) return 0;
    if (!feed) {
      const task = await store.getTask(taskId);
      if (!task) return 0;
      feed = feedJournal(machineInputFromSpec(task.spec), { inspect });
    }
    const { entries } = await store.loadJournal(taskId);
    const before = feed.fed;
    feed.feedWhileActive(entries.slice(before));
    return feed.fed - before;
  };

  return {
    header: recorder.header,
    get replayed() {
      return feed?.fed ?? 0;
    },
    get done() {
      return feed?.snapshot.status === 'done';
    },
    catchUp() {
      queue = queue.then(step, step);
      return queue;
    },
    stop() {
      stopped = true;
      feed?.stop();
    },
  };
}
