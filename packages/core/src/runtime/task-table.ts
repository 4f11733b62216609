import type { AnyActorLogic } from 'xstate';
import type { TaskEventBase } from '../events.js';
import type { SubagentEvent } from '../machines/subagent-events.js';
import type { TaskResult, TaskSpec, TaskStatus } from '../persistence/types.js';
import type { ToolRegistry } from '../tools/tool-registry.js';
import { phaseOf } from './subagent-snapshot.js';
import type { TaskDriver } from './task-driver.js';

/** What `runtime.get` and `runtime.list` report about a task. */
export interface TaskInfo {
  id: string;
  agent: string;
  status: TaskStatus;
  sessionKey: string;
  description: string;
  background: boolean;
  depth: number;
  parentTaskId?: string;
  model: string;
  createdAt: number;
  startedAt?: number;
  endedAt?: number;
  turns: number;
  toolCalls: number;
  tokens: number;
  elapsedMs: number;
  result?: TaskResult;
}

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
  registry: ToolRegistry;
  driver: TaskDriver | undefined;
  result: TaskResult | undefined;
  endedAt: number | undefined;
  promise: Promise<TaskResult>;
  resolve: (result: TaskResult) => void;
  restore: { logic: AnyActorLogic | undefined; replay: SubagentEvent[]; journalLength: number } | undefined;
  /** Steering messages for a task that has not started: given to it as it starts. */
  steering?: string[];
  /** Frozen info of a finished task. */
  info?: TaskInfo;
}

const FINAL = new Set<TaskStatus>(['completed', 'failed', 'cancelled']);

/** @internal The runtime's index of tasks: by id, in submission order. */
export class TaskTable {
  private readonly entries = new Map<string, TaskEntry>();

  add(spec: TaskSpec, registry: ToolRegistry, restore?: TaskEntry['restore']): TaskEntry {
    let resolve!: (result: TaskResult) => void;
    const promise = new Promise<TaskResult>((done) => {
      resolve = done;
    });
    const entry: TaskEntry = {
      spec,
      registry,
      driver: undefined,
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

  settle(id: string, result: TaskResult, at: number): void {
    const entry = this.entries.get(id);
    if (!entry || entry.result) return;
    entry.result = result;
    entry.endedAt = at;
    entry.restore = undefined;
    const driver = entry.driver;
    entry.driver = undefined;
    if (driver) entry.info = infoFromDriver(entry, driver, at);
    entry.resolve(result);
  }

  activeInSession(sessionKey: string): number {
    let count = 0;
    for (const entry of this.entries.values())
      if (!entry.result && entry.spec.sessionKey === sessionKey) count++;
    return count;
  }

  detachAll(): void {
    for (const entry of this.entries.values()) {
      entry.driver?.detach();
      entry.driver = undefined;
    }
  }

  eventBase(spec: TaskSpec, at: number): TaskEventBase {
    const base: TaskEventBase = {
      taskId: spec.taskId,
      agent: spec.agent,
      sessionKey: spec.sessionKey,
      description: spec.description,
      at,
      toolCalls: 0,
      turns: 0,
      elapsedMs: 0,
      tokens: 0,
      depth: spec.depth,
    };
    if (spec.parentTaskId) base.parentTaskId = spec.parentTaskId;
    return base;
  }

  info(id: string, now: number): TaskInfo | undefined {
    const entry = this.entries.get(id);
    if (!entry) return undefined;
    if (entry.info) return entry.info;
    return entry.driver ? infoFromDriver(entry, entry.driver, now) : baseInfo(entry);
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
      if (filter.active && FINAL.has(status)) continue;
      out.push(this.info(entry.spec.taskId, now)!);
      if (filter.limit && out.length >= filter.limit) break;
    }
    return out;
  }
}

/**
 * A task's status, derived and never stored: from its result once it ended, else from its live
 * actor's state, else queued (waiting for a slot).
 */
function statusOf(entry: TaskEntry): TaskStatus {
  if (entry.result) return entry.result.status;
  const snapshot = entry.driver?.snapshot;
  if (!snapshot) return 'queued';
  return phaseOf(snapshot) === 'awaitingApproval' ? 'awaitingApproval' : 'running';
}

function baseInfo(entry: TaskEntry): TaskInfo {
  const spec = entry.spec;
  const info: TaskInfo = {
    id: spec.taskId,
    agent: spec.agent,
    status: statusOf(entry),
    sessionKey: spec.sessionKey,
    description: spec.description,
    background: spec.background,
    depth: spec.depth,
    model: entry.result?.model ?? spec.model,
    createdAt: spec.createdAt,
    turns: entry.result?.turns ?? 0,
    toolCalls: entry.result?.toolCalls ?? 0,
    tokens: entry.result?.usage.total ?? 0,
    elapsedMs: entry.result?.durationMs ?? 0,
  };
  if (spec.parentTaskId) info.parentTaskId = spec.parentTaskId;
  if (entry.endedAt !== undefined) info.endedAt = entry.endedAt;
  if (entry.result) info.result = entry.result;
  return info;
}

function infoFromDriver(entry: TaskEntry, driver: TaskDriver, now: number): TaskInfo {
  const info = baseInfo(entry);
  const context = driver.context;
  if (!context) return info;
  if (context.startedAt) info.startedAt = context.startedAt;
  info.turns = context.turns;
  info.toolCalls = context.toolCalls;
  info.tokens = context.usage.input + context.usage.output;
  info.model = context.modelUsed ?? info.model;
  info.elapsedMs = context.startedAt ? (context.end?.endedAt ?? now) - context.startedAt : 0;
  return info;
}
