import type { ActorState, Frame, TimelineModel } from './player.js';

/** What an actor is in a troupe runtime, read from its machine and context. */
export type RunKind = 'supervisor' | 'session' | 'run' | 'task' | 'actor';

/** One row of the run tree: an actor, or a task still waiting in the supervisor's queue. */
export interface RunNode {
  kind: RunKind;
  /** The actor (absent for a queued task, which has no actor yet). */
  sessionId?: string;
  /** Task id, run id (`demo#1`), session actor id, `supervisor`. */
  name: string;
  agent?: string;
  /** `queued`, `pending`, `running`, `completed`, `failed`, `cancelled`, `idle`, `active`, `stopped`. */
  status: string;
  /** 1 for the next task to start (queued tasks only). */
  queuePosition?: number;
  /** Ms of run time, from the actor's start to its end or to this step. */
  durationMs?: number;
  tokens?: { input: number; output: number };
  children: RunNode[];
}

/**
 * The time a timeline's run starts: its first frame's, or, in a replay, whose first records are
 * stamped 0 (before the journal's first entry gives a time), the first real one.
 */
export function runStart(model: TimelineModel): number {
  const first = model.frames[0]?.at ?? 0;
  return first > 0 ? first : (model.frames.find((frame) => frame.at > 0)?.at ?? 0);
}

/** When a task or run was queued, started and ended, over the whole timeline (ms since epoch). */
export interface Lane {
  kind: 'run' | 'task';
  sessionId: string;
  name: string;
  agent?: string;
  queuedAt?: number;
  startedAt: number;
  /** Absent while it never ended in the timeline. */
  endedAt?: number;
  status: string;
}

/** A task's id (a replayed task's actor is named after its machine), else the actor's name. */
const nameOf = (actor: ActorState): string => {
  const taskId = (actor.context.task as { taskId?: unknown } | undefined)?.taskId;
  return typeof taskId === 'string' ? taskId : actor.name;
};

const kindOf = (actor: ActorState, actors: ReadonlyMap<string, ActorState>): RunKind => {
  if (actor.name === 'supervisor' || actor.systemId === 'supervisor') return 'supervisor';
  if ('sessionKey' in actor.context && 'run' in actor.context) return 'session';
  if (actor.context.task && typeof actor.context.task === 'object') {
    const parent = actor.parentId ? actors.get(actor.parentId) : undefined;
    return parent && 'sessionKey' in parent.context && 'run' in parent.context ? 'run' : 'task';
  }
  return 'actor';
};

/**
 * An effect a task or run invoked (its model call, tool call, approval wait, deadline): shown by
 * the trace view, not as a node of the tree.
 */
const isEffect = (actor: ActorState, actors: ReadonlyMap<string, ActorState>): boolean => {
  const parent = actor.parentId ? actors.get(actor.parentId) : undefined;
  return !!parent?.context.task && kindOf(actor, actors) === 'actor';
};

/** A task or run actor's status in words: its final state, or `running` / `pending`. */
export function runStatus(actor: ActorState): string {
  const value = actor.value;
  if (typeof value === 'string') return value;
  if (value && typeof value === 'object' && 'running' in value) return 'running';
  return actor.status;
}

interface Submitted {
  taskId: string;
  sessionKey?: string;
  agent?: string;
  /** The task that started it (a nested task). */
  parentTaskId?: string;
  recordIndex: number;
}

function submissions(model: TimelineModel): Submitted[] {
  const out: Submitted[] = [];
  for (const logged of model.events) {
    if (logged.event.type !== 'task.submitted') continue;
    const task = logged.event.task as
      | { taskId?: unknown; sessionKey?: unknown; parentTaskId?: unknown; input?: { agent?: unknown } }
      | undefined;
    if (typeof task?.taskId !== 'string') continue;
    out.push({
      taskId: task.taskId,
      recordIndex: logged.recordIndex,
      ...(typeof task.sessionKey === 'string' ? { sessionKey: task.sessionKey } : {}),
      ...(typeof task.input?.agent === 'string' ? { agent: task.input.agent } : {}),
      ...(typeof task.parentTaskId === 'string' ? { parentTaskId: task.parentTaskId } : {}),
    });
  }
  return out;
}

/** The frame in force just before a record: the last frame made from an earlier record. */
function frameBefore(model: TimelineModel, recordIndex: number): Frame | undefined {
  let found: Frame | undefined;
  for (const frame of model.frames) {
    if (frame.recordIndex >= recordIndex) break;
    found = frame;
  }
  return found;
}

const usageOf = (actor: ActorState) => {
  const usage = actor.context.usage as { input?: unknown; output?: unknown } | undefined;
  return typeof usage?.input === 'number' && typeof usage.output === 'number'
    ? { input: usage.input, output: usage.output }
    : undefined;
};

const durationOf = (actor: ActorState): number | undefined => {
  const started = actor.context.startedAt;
  if (typeof started !== 'number' || started <= 0) return undefined;
  const end = (actor.context.end as { endedAt?: unknown } | undefined)?.endedAt;
  const until = typeof end === 'number' ? end : actor.context.now;
  return typeof until === 'number' ? Math.max(0, until - started) : undefined;
};

/**
 * The tree of what a runtime ran, as it stood at `frameIndex`: the supervisor, its sessions, each
 * session's main-agent runs, and under each run the tasks it started (a task belongs to the run
 * its session was running when the task was submitted); a nested task sits under its parent task
 * (`task.submitted` names it); tasks with no session run under the supervisor. Tasks submitted and not yet started are listed as `queued`, with their position;
 * the effects a task invokes are not nodes (the trace view shows them).
 */
export function runTree(model: TimelineModel, frameIndex: number): RunNode[] {
  const frame = model.frames[frameIndex];
  if (!frame) return [];
  const actors = frame.actors;
  const nodes = new Map<string, RunNode>();
  const roots: RunNode[] = [];
  for (const actor of actors.values()) {
    if (isEffect(actor, actors)) continue;
    const kind = kindOf(actor, actors);
    const task = actor.context.task as { agent?: unknown } | undefined;
    const tokens = usageOf(actor);
    const durationMs = kind === 'run' || kind === 'task' ? durationOf(actor) : undefined;
    nodes.set(actor.sessionId, {
      kind,
      sessionId: actor.sessionId,
      name: actor.name,
      status:
        kind === 'run' || kind === 'task'
          ? runStatus(actor)
          : actor.status === 'active'
            ? String(actor.value)
            : actor.status,
      ...(typeof task?.agent === 'string' ? { agent: task.agent } : {}),
      ...(durationMs !== undefined ? { durationMs } : {}),
      ...(tokens ? { tokens } : {}),
      children: [],
    });
  }
  // Which run each task belongs to: its session's run at the time it was submitted.
  const runOfTask = new Map<string, string>();
  const queued: (Submitted & { parent?: string })[] = [];
  const started = new Set([...actors.values()].map(nameOf));
  for (const submitted of submissions(model)) {
    if (submitted.recordIndex > frame.recordIndex) break;
    const before = frameBefore(model, submitted.recordIndex);
    let parent: string | undefined;
    if (submitted.parentTaskId) {
      const task = [...actors.values()].find((actor) => nameOf(actor) === submitted.parentTaskId);
      if (task && nodes.has(task.sessionId)) {
        runOfTask.set(submitted.taskId, task.sessionId);
        if (!started.has(submitted.taskId)) queued.push({ ...submitted, parent: task.sessionId });
        continue;
      }
    }
    for (const actor of before?.actors.values() ?? []) {
      if (actor.context.sessionKey !== submitted.sessionKey || typeof actor.context.run !== 'string')
        continue;
      const run = [...(before?.actors.values() ?? [])].find(
        (candidate) => candidate.parentId === actor.sessionId && candidate.name === actor.context.run,
      );
      parent = run?.sessionId ?? actor.sessionId;
    }
    if (parent) runOfTask.set(submitted.taskId, parent);
    if (!started.has(submitted.taskId)) queued.push({ ...submitted, ...(parent ? { parent } : {}) });
  }
  for (const actor of actors.values()) {
    const node = nodes.get(actor.sessionId);
    if (!node) continue;
    const parent =
      (node.kind === 'task' ? runOfTask.get(nameOf(actor)) : undefined) ??
      (actor.parentId && nodes.has(actor.parentId) ? actor.parentId : undefined);
    if (parent && nodes.has(parent)) nodes.get(parent)!.children.push(node);
    else roots.push(node);
  }
  queued.forEach((task, index) => {
    const node: RunNode = {
      kind: 'task',
      name: task.taskId,
      status: 'queued',
      queuePosition: index + 1,
      ...(task.agent ? { agent: task.agent } : {}),
      children: [],
    };
    const parent = task.parent && nodes.get(task.parent);
    if (parent) parent.children.push(node);
    else roots.push(node);
  });
  return roots;
}

/**
 * Every task and main-agent run of a timeline as a lane over time: when it was queued (tasks),
 * started and ended, and how it ended. Lanes are in start order.
 */
export function runLanes(model: TimelineModel): Lane[] {
  const queuedAt = new Map(
    submissions(model).map((submitted) => [
      submitted.taskId,
      model.events.find((logged) => logged.recordIndex === submitted.recordIndex)?.at,
    ]),
  );
  const lanes = new Map<string, Lane>();
  for (const frame of model.frames) {
    const actor = frame.actors.get(frame.sessionId)!;
    const kind = kindOf(actor, frame.actors);
    if (kind !== 'run' && kind !== 'task') continue;
    let lane = lanes.get(actor.sessionId);
    if (!lane) {
      const task = actor.context.task as { agent?: unknown } | undefined;
      const queued = queuedAt.get(nameOf(actor));
      lane = {
        kind,
        sessionId: actor.sessionId,
        name: nameOf(actor),
        startedAt: frame.at,
        status: runStatus(actor),
        ...(typeof task?.agent === 'string' ? { agent: task.agent } : {}),
        ...(queued !== undefined ? { queuedAt: queued } : {}),
      };
      lanes.set(actor.sessionId, lane);
    }
    lane.status = runStatus(actor);
    if (actor.status !== 'active' && lane.endedAt === undefined) {
      // The task's own end time: its parent may take the news (and start the next task) before
      // the task's last snapshot is recorded.
      const ended = (actor.context.end as { endedAt?: unknown } | undefined)?.endedAt;
      lane.endedAt = typeof ended === 'number' ? Math.min(ended, frame.at) : frame.at;
    }
  }
  return [...lanes.values()].sort((a, b) => a.startedAt - b.startedAt);
}
