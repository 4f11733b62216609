import type { Actor, AnyActorLogic, AnyActorRef } from 'xstate';
import type { TaskEventBase } from '../events.js';
import type { SubagentEvent } from '../machines/subagent-events.js';
import type { SubagentContext, SubagentOutput } from '../machines/subagent-machine.js';
import type { QueuedTask, SupervisorMachine } from '../machines/supervisor-machine.js';
import { machineInputFromSpec } from '../persistence/machine-input.js';
import { describeThrown } from '../persistence/plain-json.js';
import { queuedRecord } from '../persistence/task-documents.js';
import type { TaskResult, TaskSpec, TaskStatus } from '../persistence/types.js';
import type { ToolRegistry } from '../tools/tool-registry.js';
import { announcement } from './announcement.js';
import type { EffectIO } from './effects/effect-io.js';
import type { EffectRun } from './effects/effect-run.js';
import { RunEffects } from './effects/run-effects.js';
import type { ToolCalls } from './effects/tool-calls.js';
import type { RunHost } from './run-host.js';
import { RunRecords } from './run-records.js';
import { phaseOf, type SubagentRef, type SubagentSnapshot } from './subagent-snapshot.js';
import type { TaskHandle } from './task-handle.js';
import { progressOf, type TaskInfo, type TaskProgress, taskEventBase, taskInfoOf } from './task-info.js';
import { cancelledBeforeStart, toResult } from './task-results.js';

/**
 * Submits a task: makes its {@link TaskRun} (its one entry from queued to its end), indexes it,
 * records it as queued unless it is `recorded` already (restored, forked, stored by another
 * process), emits `task.queued` and queues it with the supervisor, which launches the run when it
 * spawns the task's actor ({@link supervisorHooks}).
 */
export function submitRun(
  queue: RunQueue,
  spec: TaskSpec,
  restore?: RestoredStart,
  recorded = restore !== undefined,
): TaskHandle {
  const { runHost: host, table, supervisor } = queue;
  const run = new TaskRun(host, spec, restore ? { restore } : {});
  table.set(spec.taskId, run);
  if (!recorded) host.store.appendStatus(queuedRecord(spec));
  const task: QueuedTask = {
    taskId: spec.taskId,
    sessionKey: spec.sessionKey,
    input: machineInputFromSpec(spec),
  };
  if (spec.parentTaskId) task.parentTaskId = spec.parentTaskId;
  if (restore?.logic) task.logic = restore.logic;
  if (host.emitter.listening('task.queued')) {
    const { running, queue: waiting, maxConcurrent } = supervisor.getSnapshot().context;
    const position = running.length < maxConcurrent ? 0 : waiting.size + 1;
    host.emitter.emit('task.queued', Object.assign(run.base(), { position }));
  }
  supervisor.send({ type: 'task.submitted', task, system: spec.system });
  return { id: spec.taskId, result: run.promise };
}

/**
 * Where a task's run starts from other than its spec: a restored task's journal length (its start
 * recorded `task.resumed`), or a fork's first start (`forked`: its journal was copied, so it is
 * recorded `task.started`).
 */
export interface RunStartsFrom {
  journalLength: number;
  forked?: boolean;
}

/**
 * A task that comes back from a stored state: its actor's logic (from a snapshot), its journal's
 * length, and whether it is a fork (a new task that starts from a copied state: `task.started`).
 */
export interface RestoredStart extends RunStartsFrom {
  logic: AnyActorLogic | undefined;
}

/** What queuing a task needs: what every run is given, the runtime's index of runs, and the supervisor. */
export interface RunQueue {
  readonly runHost: RunHost;
  readonly table: Map<string, TaskRun>;
  readonly supervisor: Pick<Actor<SupervisorMachine>, 'send' | 'getSnapshot'>;
}

type Reason = string | undefined;

/**
 * The supervisor machine's actions on its tasks' runs, each found in `table` by its task's id: a
 * task got a slot (its actor was spawned: the run launches it), was dropped from the queue, or
 * must be cancelled while it runs.
 */
export function supervisorHooks(table: ReadonlyMap<string, TaskRun>) {
  return {
    taskStarted: (
      { system }: { system: { get(id: string): SubagentRef | undefined } },
      { taskId }: { taskId: string },
    ) => table.get(taskId)?.launch(system.get(taskId)),
    taskDropped: (_: unknown, { taskId, reason }: { taskId: string; reason: Reason }) =>
      table.get(taskId)?.drop(reason),
    cancelRunning: (_: unknown, { taskId, reason }: { taskId: string; reason: Reason }) =>
      table.get(taskId)?.cancel(reason),
  };
}

/** Each live subagent actor's run (tasks' and main agents'), set as the run attaches to it. */
const runs = new WeakMap<AnyActorRef, TaskRun>();

/**
 * The run that drives a subagent actor, for its effects (`effects/effect-actors.ts`), or undefined
 * (no run drives it: a replay's actor).
 */
export function runOfActor(actor: AnyActorRef | undefined): TaskRun | undefined {
  return actor ? runs.get(actor) : undefined;
}

/**
 * One task, from its submission (queued, {@link submitRun}) to its end: the runtime's task table
 * only indexes these. It owns the task's status (queued until its actor is launched, then its
 * actor's state, then its result's), its info, and its end: the promise of its result, which the
 * run settles itself once its own workspace is closed (its result names what became of it),
 * storing the result and the final record first. While it runs: the journal of the events its actor receives,
 * and what its snapshots tell the public API (the snapshot document, the status records). The
 * actor runs itself: its states invoke their effects (`effects/effect-actors.ts`), which reach the
 * task through this run ({@link EffectRun}); the runtime only sends it the events of API calls
 * (`task.started`, `cancel.requested`, `task.steered`). A main agent's run is a `TaskRun` too,
 * made by its session with the registry it planned: it has no end of its own (its session records it).
 */
export class TaskRun implements EffectRun {
  readonly spec: TaskSpec;
  private readonly host: RunHost;
  /** What its effects hold (tools, effect IO, tool calls, abort controller): made at their first use. */
  private readonly effects: RunEffects;
  private actor: SubagentRef | undefined;
  /** What it writes to the store: journal, snapshot, status records, result. */
  private readonly records: RunRecords;
  /** The promise of the task's result, settled once as it ends (a main agent's run never settles it). */
  readonly promise: Promise<TaskResult>;
  private resolve!: (result: TaskResult) => void;
  /** The task's result, once it ended. */
  private settled: TaskResult | undefined;
  private endedAt: number | undefined;
  /** The task's info as it ended (undefined when it ended before it ran: nothing ran to count). */
  private frozen: TaskInfo | undefined;
  /** A main agent's run (its session records its end), not a task. */
  private readonly main: boolean;
  /** Restored from a stored state (its start is recorded `task.resumed`). */
  private resumed: boolean;
  /** Steering messages given before the actor was launched: given to it as it launches. */
  private steering: string[] | undefined;
  /** The last status recorded from the state was `awaitingApproval`. */
  private awaiting = false;
  /** True once the task reached a final state, or the runtime let it go. */
  ended = false;
  /** The last snapshot the actor reported (what its document holds; a stopped actor reports no more). */
  private observed: SubagentSnapshot | undefined;

  /**
   * A task's run is made as the task is submitted: it takes its tools from its host at their first
   * use, and numbers its journal on from `from.restore` (a restored or forked task's stored
   * entries). A main agent's run brings the registry its session planned (`from.registry`).
   */
  constructor(
    host: RunHost,
    spec: TaskSpec,
    from: { readonly restore?: RunStartsFrom; readonly registry?: ToolRegistry } = {},
  ) {
    const { restore } = from;
    this.host = host;
    this.spec = spec;
    this.records = new RunRecords(host, spec.taskId, restore?.journalLength ?? 0);
    this.resumed = restore !== undefined && !restore.forked;
    this.main = from.registry !== undefined;
    this.effects = new RunEffects(host, spec, this, from.registry);
    this.promise = new Promise<TaskResult>((done) => {
      this.resolve = done;
    });
  }

  /** What the task's effects reach it through (its host, spec, tools, tool inputs, events). */
  get io(): EffectIO {
    return this.effects.io;
  }

  /** The task's tool calls (read calls started early, each call once). */
  get tools(): ToolCalls {
    return this.effects.tools;
  }

  /** The actor's snapshot as it is now (an effect may run inside a transition, before observers hear of it). */
  get snapshot(): SubagentSnapshot | undefined {
    return this.actor?.getSnapshot();
  }

  get context(): SubagentContext | undefined {
    return this.actor?.getSnapshot().context;
  }

  get signal(): AbortSignal {
    return this.effects.signal;
  }

  /**
   * Follows `actor` and starts it (a spawned child would start after its parent's transition; its
   * effects need this run first). Its effects find the run with {@link runOfActor}, set before it starts.
   */
  attach(actor: SubagentRef): void {
    this.actor = actor;
    runs.set(actor, this);
    actor.subscribe({ next: (snapshot) => this.observe(snapshot), error: () => {} });
    actor.start();
    this.observe(actor.getSnapshot());
  }

  /**
   * The supervisor spawned this task's actor: records that it started (or `resumed`, restored from a
   * stored state), follows and starts the actor, gives it the steering that waited for it, begins,
   * and emits `task.started`. Nothing for an actor that is not there.
   */
  launch(actor: SubagentRef | undefined): void {
    if (!actor || this.actor || this.ended) return;
    this.records.status(this.resumed ? 'task.resumed' : 'task.started');
    const steering = this.steering ?? [];
    this.steering = undefined;
    this.resumed = false;
    this.attach(actor);
    for (const text of steering) this.steer(text);
    this.begin();
    const emitter = this.host.emitter;
    if (emitter.listening('task.started') && !this.ended) emitter.emit('task.started', this.base());
  }

  /**
   * Starts a task whose actor is pending: its deadline runs from now, capped by its parent's. When
   * the host gives tasks context at start (agent memory, `SubagentStart` hooks), it is gathered
   * first and journaled with `task.started`; a task cancelled meanwhile does not start.
   */
  begin(): void {
    if (this.snapshot?.value !== 'pending') return;
    const gather = this.host.startContext;
    // A main agent's run (depth 0) waits only for `UserPromptSubmit` hooks; without them it starts at once.
    if (!gather || (this.spec.depth < 1 && !this.host.hooks?.userPromptSubmit)) {
      this.start(undefined);
      return;
    }
    gather(this.spec, this.signal).then(
      ({ texts, stop }) => {
        if (stop === undefined) this.start(texts);
        else if (!this.ended && this.snapshot?.value === 'pending')
          this.send({ type: 'hook.stopped', at: this.host.clock.now(), reason: stop });
      },
      (error: unknown) => {
        this.io.warn(
          'HOOK_FAILED',
          `Task ${this.spec.taskId}: its start context failed: ${describeThrown(error)}.`,
        );
        this.start(undefined);
      },
    );
  }

  private start(context: string[] | undefined): void {
    if (this.ended || this.snapshot?.value !== 'pending') return;
    const at = this.host.clock.now();
    const deadline = Math.min(
      at + this.spec.limits.timeoutMs,
      this.spec.deadlineCap ?? Number.MAX_SAFE_INTEGER,
    );
    this.send(
      context?.length
        ? { type: 'task.started', at, deadline, context }
        : { type: 'task.started', at, deadline },
    );
  }

  /** Feeds an event of an API call to the machine, journaled first. */
  send(event: SubagentEvent): void {
    if (this.journal(event)) this.actor!.send(event);
  }

  /** Journals an event the actor is about to receive (a store that throws does not stop it); false once the run takes no more. */
  journal(event: SubagentEvent): boolean {
    if (this.ended || !this.actor) return false;
    this.records.journal(event);
    return true;
  }

  /** Gives the task a steering message (journaled like every event); kept for its launch while it is queued. */
  steer(text: string): void {
    if (this.actor || this.ended) this.send({ type: 'task.steered', at: this.host.clock.now(), text });
    else {
      this.steering ??= [];
      this.steering.push(text);
    }
  }

  /** The supervisor dropped this queued task (cancelled before it started): it ends `cancelled`. */
  drop(reason: string | undefined): void {
    this.endBeforeStart(
      cancelledBeforeStart(this.spec, reason ?? 'The task was cancelled before it started.'),
    );
  }

  /** Ends a task that never ran (dropped from the queue, or that cannot be restored) with `result`. */
  endBeforeStart(result: TaskResult): void {
    if (this.actor || this.ended) return;
    this.ended = true;
    this.end(result, false);
  }

  /**
   * Ends the task with `result`, its run read once as it ended (its final event and info tell the
   * moment its final record does; `ran`: its actor ran, so its counters count). Its own workspace
   * is closed first, then it settles.
   */
  private end(result: TaskResult, ran: boolean): void {
    const at = this.host.clock.now();
    const base = this.base();
    const progress = ran ? this.progressAt(at) : undefined;
    if (!this.spec.workspace) this.settle(result, at, base, progress);
    else
      this.host.tooling
        .closeWorkspace(this.spec, result)
        .then((closed) => this.settle(closed, at, base, progress));
  }

  /**
   * Stores the result and the final status record, freezes the info, resolves the promise and
   * emits `task.<status>` (and `task.announced` for a task that announces). A store write that
   * throws is a `PERSISTENCE_FAILED` warning, never the end of the task.
   */
  private settle(
    result: TaskResult,
    at: number,
    base: TaskEventBase,
    progress: TaskProgress | undefined,
  ): void {
    const { spec } = this;
    const { emitter } = this.host;
    this.records.end(result, at);
    this.settled = result;
    this.endedAt = at;
    if (progress) this.frozen = taskInfoOf(spec, { status: result.status, result, endedAt: at }, progress);
    this.resolve(result);
    const name = `task.${result.status}` as const;
    if (emitter.listening(name)) emitter.emit(name, Object.assign(base, { result }));
    if (spec.announce)
      emitter.emit(
        'task.announced',
        Object.assign({}, base, { result, message: announcement(spec, result) }),
      );
  }

  /** The task's result, once it ended (settled: its workspace closed, its result stored). */
  get result(): TaskResult | undefined {
    return this.settled;
  }

  /** True while the task's actor runs under this run (launched, not yet settled or let go). */
  get running(): boolean {
    return this.actor !== undefined;
  }

  cancel(reason?: string): void {
    const at = this.host.clock.now();
    this.send(reason ? { type: 'cancel.requested', at, reason } : { type: 'cancel.requested', at });
  }

  /** Aborts the effects in flight; the next ones get a fresh signal (made when they ask for it). */
  abortEffects(): void {
    this.effects.abort();
  }

  turnEnded(): void {
    if (this.host.emitter.listening('task.progress'))
      this.host.emitter.emit('task.progress', this.io.event({ kind: 'turn' as const }));
  }

  private observe(snapshot: SubagentSnapshot): void {
    if (this.ended || snapshot === this.observed) return;
    this.observed = snapshot;
    const done = snapshot.status === 'done';
    this.records.snapshot(snapshot, done);
    if (done) {
      this.ended = true;
      if (this.main) return;
      this.promise.then(() => this.release());
      this.end(toResult(this.spec, snapshot.output as SubagentOutput), true);
      return;
    }
    const awaiting = snapshot.status === 'active' && phaseOf(snapshot) === 'awaitingApproval';
    if (awaiting !== this.awaiting) {
      this.awaiting = awaiting;
      this.records.status(awaiting ? 'task.awaitingApproval' : 'task.resumed');
    }
  }

  /**
   * Lets go of the ended task's actor and what its effects held (its tools, tool inputs and abort
   * controller): its info was frozen as it ended, and the table keeps the run as the task's entry.
   */
  private release(): void {
    this.actor = undefined;
    this.observed = undefined;
    this.effects.release();
  }

  /**
   * Lets the task go without ending it (the runtime shut down keeping it for a restore): the
   * effects in flight are aborted and nothing more is journaled.
   */
  detach(): void {
    if (this.result) return;
    this.ended = true;
    this.effects.release({ abort: true });
    this.actor = undefined;
  }

  /**
   * The task's status, derived and never stored: its result's once it ended, else its actor's
   * state, else queued (waiting for a slot).
   */
  get status(): TaskStatus {
    const result = this.result;
    if (result) return result.status;
    const snapshot = this.snapshot;
    if (!snapshot) return 'queued';
    return phaseOf(snapshot) === 'awaitingApproval' ? 'awaitingApproval' : 'running';
  }

  /** The task's info as of `now` (frozen as it ended). */
  info(now: number): TaskInfo {
    if (this.frozen) return this.frozen;
    const { result, endedAt } = this;
    return taskInfoOf(this.spec, { status: this.status, result, endedAt }, this.progressAt(now));
  }

  /** The task's counters as of `now`, from its actor's context (undefined before it runs). */
  private progressAt(now: number): TaskProgress | undefined {
    return progressOf(this.context, now);
  }

  /** Fields every event about this task carries. */
  base(): TaskEventBase {
    const now = this.host.clock.now();
    return taskEventBase(this.spec, now, this.progressAt(now));
  }
}
