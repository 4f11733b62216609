import type { AgentEffort, PermissionMode } from '../definitions/types.js';
import type { SerializedError } from '../errors.js';
import type { SubagentEvent } from '../machines/subagent-events.js';
import type { JsonSchema, Message, ToolSpec, Usage } from '../model/types.js';

/**
 * Version of every persisted document written by this troupe. Version 1 documents are still read
 * (upgraded as they load); an unknown version is refused with PERSISTENCE_VERSION.
 */
export const SCHEMA_VERSION = 2 as const;

/** Where a task is in its life. */
export type TaskStatus = 'queued' | 'running' | 'awaitingApproval' | 'completed' | 'failed' | 'cancelled';

/** Why a task ended. */
export type TerminateReason = 'GOAL' | 'TIMEOUT' | 'MAX_TURNS' | 'TOKEN_LIMIT' | 'ABORTED' | 'ERROR';

/** Limits of one task, after defaults and the parent's caps are applied. */
export interface TaskLimits {
  maxTurns: number;
  /** Input + output tokens. */
  tokenBudget: number;
  timeoutMs: number;
}

/**
 * Everything needed to start, or start again, one task. Persisted when the task is queued, so a
 * restore does not depend on the agent definitions still being the same.
 */
export interface TaskSpec {
  taskId: string;
  agent: string;
  description: string;
  prompt: string;
  sessionKey: string;
  parentTaskId?: string;
  /** 1 for a task started by a main agent, 2 for a task started by a sub-agent, ... */
  depth: number;
  background: boolean;
  /** Announce the result back into the originating session (the `spawn` tool). */
  announce: boolean;
  /** The resolved model id. */
  model: string;
  system: string;
  /** Names of the tools in the agent's registry when the task was submitted. */
  tools: string[];
  /**
   * The tool specs its requests show the model, when they are not its registry's: a child that
   * forks its parent's context sends the parent's (so it reads the parent's cached prefix). Its
   * registry (`tools`) still decides what runs: a call to any other tool is refused.
   */
  requestTools?: ToolSpec[];
  limits: TaskLimits;
  /**
   * Length of the grace turn after MAX_TURNS or TIMEOUT, in ms. Persisted so that a replay ends a
   * grace turn with the same deadline as the live run; absent in version-1 stores (the default
   * applies, see `machineInputFromSpec`).
   */
  graceMs?: number;
  /** Absolute time (ms) the task may never run past, e.g. its parent's deadline. */
  deadlineCap?: number;
  /** Structured task input, already validated against the agent's input schema. */
  input?: unknown;
  outputSchema?: JsonSchema;
  /** Present on a task `runtime.fork` made: the task and step it came from. */
  forkedFrom?: ForkLink;
  /** The permission mode the task runs in, when not `default` (resolved when it was submitted). */
  permissionMode?: PermissionMode;
  /** The agent's reasoning effort: the model's thinking budget on every turn. */
  effort?: AgentEffort;
  /** Agent names this task may start with the task tools (`Agent(explore, plan)` in its `tools`). */
  allowedAgents?: string[];
  /** The finished task whose conversation this one continues (a follow-up). */
  followUpOf?: string;
  /** The conversation the task starts from (forked parent context, then the prompt). */
  messages: Message[];
  createdAt: number;
  /** The task's own workspace, when its agent asks for one (`isolation`): see `TaskWorkspaces`. */
  workspace?: TaskWorkspaceRecord;
  /** A team's own task (`{ teamId }`), or a working spell of one of its members (`{ teamId, member }`). */
  team?: TeamLink;
}

/**
 * A task's link to an agent team (`runtime.createTeam`): the team's own task has only `teamId` (its
 * journal holds the team's events); a member's spell names the member too.
 */
export interface TeamLink {
  teamId: string;
  member?: string;
}

/** What a task produced. `handle.result` resolves to this; it never rejects for task failures. */
export interface TaskResult {
  taskId: string;
  agent: string;
  status: 'completed' | 'failed' | 'cancelled';
  terminateReason: TerminateReason;
  /** The final answer (text), or the value parsed against the agent's output schema. */
  output: unknown;
  turns: number;
  toolCalls: number;
  durationMs: number;
  /** The model id the provider actually used (the last one reported). */
  model: string;
  usage: Usage & { total: number };
  /**
   * `usage` split by the model that answered, present when more than one did (a fallback model,
   * a fork continued under another agent's model): the ledger prices each part under its model.
   */
  usageByModel?: Readonly<Record<string, Usage>>;
  error?: SerializedError;
  /** What became of the task's own workspace (`isolation`): kept with its branch and changes, or removed. */
  workspace?: TaskWorkspaceOutcome;
}

/**
 * A task's own workspace, as recorded in its spec when it is spawned (so a restore finds the same
 * one again, never a new one). Plain JSON; the host may add fields of its own.
 */
export interface TaskWorkspaceRecord {
  /** What the agent asked for (its `isolation`, e.g. `worktree`). */
  isolation: string;
  /** The folder the task's file tools and shell work in. */
  path: string;
  /** The branch the workspace is on, when the host made one. */
  branch?: string;
  [field: string]: unknown;
}

/** One changed file of a task's workspace: lines added and removed (0 for a binary file). */
export interface TaskWorkspaceChange {
  file: string;
  added: number;
  removed: number;
}

/** What became of a task's workspace when the task ended; on the result as `workspace`. */
export interface TaskWorkspaceOutcome {
  path: string;
  branch?: string;
  /** True when the task changed something, so the workspace (and its branch) was kept; else removed. */
  kept: boolean;
  /** Files changed, lines added and removed, over the whole workspace. */
  files: number;
  added: number;
  removed: number;
  /** The changed files (the first 50). */
  changes: TaskWorkspaceChange[];
}

/** One line of the status log: the task's life, append-only. */
export interface TaskStatusRecord {
  v: typeof SCHEMA_VERSION;
  taskId: string;
  event:
    | 'task.queued'
    | 'task.started'
    | 'task.awaitingApproval'
    | 'task.resumed'
    | 'task.completed'
    | 'task.failed'
    | 'task.cancelled';
  status: TaskStatus;
  at: number;
  /** Present on `task.queued`. */
  spec?: TaskSpec;
  /** Present on the final record. */
  result?: TaskResult;
}

/**
 * Where a task `runtime.fork` made came from, on its spec and on its journal's first entry: the
 * original task and step, and how far the copied entries' times were moved (`shiftMs`: the fork's
 * copied history ends at the moment it was made, so its deadline leaves it the time the original
 * had left at that step).
 */
export interface ForkLink {
  taskId: string;
  step: number;
  shiftMs: number;
  /** The `seq` of the copied `model.responded` entry whose text the fork's `editMessage` replaced. */
  editedEntry?: number;
}

/** One consumed effect: exactly the event that was fed to the task's machine. */
export interface JournalEntry {
  v: typeof SCHEMA_VERSION;
  /** 0-based position in the task's journal. */
  seq: number;
  event: SubagentEvent;
  /** On the first entry of a fork's journal: the task and step it was copied from. */
  forkedFrom?: ForkLink;
}

/** The machine's persisted snapshot and how much of the journal it already includes. */
export interface TaskSnapshotDocument {
  v: typeof SCHEMA_VERSION;
  taskId: string;
  /** Journal entries [0, journalLength) are reflected in `snapshot`. */
  journalLength: number;
  savedAt: number;
  /** XState's persisted snapshot of the subagent machine. */
  snapshot: unknown;
}

/** The stored result of a finished task. */
export interface TaskResultDocument {
  v: typeof SCHEMA_VERSION;
  result: TaskResult;
}

/** A task as the store knows it: its spec, its last status, its result if it ended. */
export interface StoredTask {
  spec: TaskSpec;
  status: TaskStatus;
  updatedAt: number;
  result?: TaskResult;
}

/** What `listTasks` returns for each task: everything but its conversation and documents. */
export interface TaskSummary {
  taskId: string;
  agent: string;
  description: string;
  sessionKey: string;
  status: TaskStatus;
  background: boolean;
  depth: number;
  parentTaskId?: string;
  model: string;
  createdAt: number;
  updatedAt: number;
  /** The result, once the task ended. */
  result?: TaskResult;
}

/** A query of `TaskStore.listTasks`: filters, then newest first (by `createdAt`), `limit` a page. */
export interface TaskQuery {
  status?: TaskStatus | readonly TaskStatus[];
  agent?: string;
  sessionKey?: string;
  /**
   * Only tasks at least this deep: `1` leaves out the main agents' runs (stored as tasks of depth 0
   * for the usage ledger) and teams' own tasks, so a page holds delegated work only.
   */
  minDepth?: number;
  /** At most this many (default 50, at most 1,000). */
  limit?: number;
  /** Where the page starts: the `cursor` of the previous page. */
  cursor?: string;
}

/** One page of `TaskStore.listTasks`. */
export interface TaskPage {
  tasks: TaskSummary[];
  /** Present when older tasks match: pass it as `cursor` for the next page. */
  cursor?: string;
}

/**
 * A problem found while loading (a torn line, a corrupt document), or a stale restore lock taken
 * over (`PERSISTENCE_LOCK_TAKEN`). Loading goes on.
 */
export interface StoreWarning {
  code:
    | 'PERSISTENCE_CORRUPT'
    | 'PERSISTENCE_FAILED'
    | 'PERSISTENCE_VERSION'
    | 'PERSISTENCE_LOCK_TAKEN'
    | 'PERSISTENCE_TASK_OWNED';
  message: string;
  path?: string;
  line?: number;
}

/**
 * Where tasks are persisted. Writes are synchronous calls that may be buffered; `flush()`
 * resolves when everything written so far is durable and rejects with a `PersistenceError` if it
 * could not be. `saveSnapshot` takes a function so a store can coalesce snapshots and serialise
 * only the latest one; it returns the task's latest snapshot document when called (a store may call
 * it late, at its next flush: the document then agrees with the journal appended so far).
 * A new backend need not implement this interface: it implements the narrow `StoragePort` of
 * `@troupe/core/store`, and `createTaskStore(port)` makes the `TaskStore`. Removing old tasks
 * (`prune`) is the backends' own: the runtime never does it.
 */
export interface TaskStore {
  /** Appends a task's status record (queued, started, a final status) to the status log. */
  appendStatus(record: TaskStatusRecord): void;
  /** Appends one entry to a task's journal, the events replay feeds its machine, in order. */
  appendJournal(taskId: string, entry: JournalEntry): void;
  /** Replaces a task's snapshot with the document `produce` returns (called now or at the next flush). */
  saveSnapshot(taskId: string, produce: () => TaskSnapshotDocument): void;
  /** Stores a finished task's result document (once per task). */
  saveResult(document: TaskResultDocument): void;
  /** Resolves when every write so far is durable; rejects with a `PersistenceError` when one failed. */
  flush(): Promise<void>;
  /**
   * Every stored task (spec, last status, result), with what could not be read as `warnings`
   * (a damaged line, a record of an unknown version) instead of a rejection.
   */
  loadTasks(): Promise<{ tasks: StoredTask[]; warnings: StoreWarning[] }>;
  /**
   * A page of tasks, newest first, without their conversations, journals or snapshots: what a
   * history view or `task_list` needs. Served from an index where the store has one.
   */
  listTasks(query?: TaskQuery): Promise<TaskPage>;
  /** One task's spec, last status and result; undefined when the store has no such task. */
  getTask(taskId: string): Promise<StoredTask | undefined>;
  /** A task's journal in order; a damaged last entry (a crash mid-write) is left out with a warning. */
  loadJournal(taskId: string): Promise<{ entries: JournalEntry[]; warnings: StoreWarning[] }>;
  /** Undefined when absent; throws `PersistenceError` when present but unreadable. */
  loadSnapshot(taskId: string): Promise<TaskSnapshotDocument | undefined>;
  /** A finished task's result; undefined when the task has none (yet). */
  loadResult(taskId: string): Promise<TaskResult | undefined>;
  /** Optional: flushes, releases the restore lock and any connection or handle the store holds. */
  close?(): Promise<void>;
  /**
   * Optional: makes the caller the one runtime that resumes this store's unfinished tasks, until
   * `close()`. `runtime.restore()` calls it before loading tasks, so two runtimes restoring one store
   * never both resume a task. Rejects with a `PersistenceError` (`PERSISTENCE_LOCKED`) naming the
   * store and the holder when another live runtime holds it; resolves with warnings (a stale lock
   * of a dead holder taken over). Calling it again while holding the lock keeps it. A store that
   * knows which process runs each task also returns `runElsewhere`: unfinished tasks another live
   * runtime runs (they are not resumed; a `PERSISTENCE_TASK_OWNED` warning names each).
   */
  lockForRestore?(): Promise<{ warnings: StoreWarning[]; runElsewhere?: readonly string[] }>;
  /**
   * Optional, with `runElsewhere` from `lockForRestore`: which of `taskIds` another live runtime
   * still runs. The runtime asks it every `ownerCheckMs` about the tasks it left to another runtime,
   * and restores the others; it should cost the lines appended since the last call, not the log.
   */
  tasksRunElsewhere?(taskIds: readonly string[]): Promise<readonly string[]>;
  /** Where a task's snapshot or journal lives (a file path), for error messages. Optional. */
  locate?(taskId: string, kind: 'snapshot' | 'journal'): string;
}
