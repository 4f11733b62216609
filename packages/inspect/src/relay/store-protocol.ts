import type { TaskSummary } from '@troupe/core';

/** `GET /store/tasks` of a relay serving a task store: the store's newest tasks. */
export interface RelayTaskList {
  /** The store, in words (the CLI's store folder). */
  store: string;
  tasks: Pick<TaskSummary, 'taskId' | 'agent' | 'description' | 'status' | 'createdAt'>[];
  /** True when the store holds older tasks than these. */
  more: boolean;
}

/** `GET /store/tasks/ID/replay`: the task replayed by the relay's process, and its check. */
export interface RelayReplay {
  taskId: string;
  /** True when the replay reproduced everything the store recorded (`replayTask`'s `matches`). */
  exact: boolean;
  /** What was compared, in words. */
  compared: string[];
  /** The first difference in words (`replayTask`'s `differences`), when not exact. */
  difference?: string;
  /** Problems met on the way: a damaged journal, a snapshot that could not be read. */
  warnings: string[];
  /** The replay's timeline as JSON Lines (secrets redacted); read it with `parseTimeline`. */
  timeline: string;
}

/** What a store route answers instead, with a 4xx status: the problem in words. */
export interface RelayStoreError {
  error: string;
}
