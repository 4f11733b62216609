import type { AnyActorRef } from 'xstate';
import type { RuntimeWarning, TaskEventBase } from '../events.js';
import type { SubagentEvent } from '../machines/subagent-events.js';
import type { SubagentContext, SubagentOutput } from '../machines/subagent-machine.js';
import { describeThrown } from '../persistence/plain-json.js';
import { journalEntry, snapshotDocument, statusRecord } from '../persistence/task-documents.js';
import type { TaskResult, TaskSnapshotDocument, TaskSpec, TaskStatus } from '../persistence/types.js';
import type { ToolRegistry } from '../tools/tool-registry.js';
import type { EffectIO } from './effects/effect-io.js';
import type { EffectRun } from './effects/effect-run.js';
import { guardedController } from './effects/guarded-signal.js';
import { ToolCalls } from './effects/tool-calls.js';
import type { RunHost } from './run-host.js';
import { phaseOf, type SubagentRef, type SubagentSnapshot } from './subagent-snapshot.js';
import { type TaskInfo, type TaskProgress, taskEventBase, taskInfoOf } from './task-info.js';
import { type Ending, persist, TaskOutcome } from './task-outcome.js';
import { cancelledBeforeStart, toResult } from './task-results.js';

/**
 * Where a task's run starts from other than its spec: a restored task's journal length (its start
 * recorded `task.resumed`), or a fork's first start (`forked`: its journal was copied, so it is
 * recorded `task.started`).
 */
export interface RunStartsFrom {
  journalLength: number;
  forked?: boolean;
}

/** Each live subagent actor's run (tasks' and main agents'), set as the run attaches to it. */
const runs = new WeakMap<AnyActorRef, TaskRun>();

/**
 * The controller every ended or detached run holds instead of its own (already aborted, so a late
 * effect's signal is aborted too): a run's own controller guards its listeners with a map of its
 * own, ~3 KB a task, not kept for as long as the table holds the run.
 */
const ENDED = new AbortController();
ENDED.abort();

/**
 * The run that drives a subagent actor, for its effects (`effects/effect-actors.ts`), or undefined
 * (no run drives it: a replay's actor).
 */
export function runOfActor(actor: AnyActorRef | undefined): TaskRun | undefined {
  return actor ? runs.get(actor) : undefined;
}

/**
 * One task, from its submission (queued) to its end: the runtime's task table only
 * indexes these. It owns the task's status (queued until its actor is launched, then its actor's
 * state, then its result's), its info, and its end ({@link TaskOutcome}: the promise of its
 * result, settled by the run itself). While it runs: the journal of the events its actor receives,
 * and what its snapshots tell the public API (the snapshot document, the status records). The
 * actor runs itself: its states invoke their effects (`effects/effect-actors.ts`), which reach the
 * task through this run ({@link EffectRun}); the runtime only sends it the events of API calls
 * (`task.started`, `cancel.requested`, `task.steered`). A main agent's run is a `TaskRun` too,
 * made by its session with the registry it planned: it has no end of its own (its session records it).
 */
export class TaskRun implements EffectRun {
  readonly spec: TaskSpec;
  private readonly host: RunHost;
  /** What the effects reach the task through, and its tool calls: made at their first use, not for a queued task. */
  private effectIO: EffectIO | undefined;
  private toolCalls: ToolCalls | undefined;
  private actor: SubagentRef | undefined;
  private seq: number;
  /** The task's tools, cut at their first use (a task dropped from the queue cuts none). */
  private registry: ToolRegistry | undefined;
  /** A task's end: its result's promise, then its result. A main agent's run never settles it. */
  private readonly outcome = new TaskOutcome();
  /** A main agent's run (its session records its end), not a task. */
  private readonly main: boolean;
  /** Restored from a stored state (its start is recorded `task.resumed`). */
  private resumed: boolean;
  /** Steering messages given before the actor was launched: given to it as it launches. */
  private steering: string[] | undefined;
  /** The controller of the effects in flight: made at the first effect's signal, not for a queued task. */
  private controller: AbortController | undefined;
  /** The last status recorded from the state was `awaitingApproval`. */
  private awaiting = false;
  /** True once the task reached a final state, or the runtime let it go. */
  ended = false;
  /** The last snapshot the actor reported (what its document holds; a stopped actor reports no more). */
  private observed: SubagentSnapshot | undefined;
  /**
   * The latest snapshot document. A store may call it late (at its next flush): the run is then
   * between events, so the snapshot and the journal length agree.
   */
  private readonly produceSnapshot = () => snapshotDocument(this.spec.taskId, this.observed!, this.seq);

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
    this.seq = restore?.journalLength ?? 0;
    this.resumed = restore !== undefined && !restore.forked;
    this.main = from.registry !== undefined;
    this.registry = from.registry;
  }

  /** What the task's effects reach it through (its host, spec, tools, tool inputs, events). */
  get io(): EffectIO {
    if (this.effectIO) return this.effectIO;
    const { host, spec } = this;
    const registryOf = () => {
      this.registry ??= host.tooling.registryFor(spec);
      return this.registry;
    };
    this.effectIO = {
      host,
      spec,
      get registry() {
        return registryOf();
      },
      inputs: new Map(),
      event: (extra) => Object.assign(this.base(), extra),
      warn: (code: RuntimeWarning['code'], message: string) =>
        host.emitter.emit('runtime.warning', { code, message, taskId: spec.taskId }),
    };
    return this.effectIO;
  }

  /** The task's tool calls (read calls started early, each call once). */
  get tools(): ToolCalls {
    this.toolCalls ??= new ToolCalls(this.io);
    return this.toolCalls;
  }

  /** The actor's snapshot as it is now (an effect may run inside a transition, before observers hear of it). */
  get snapshot(): SubagentSnapshot | undefined {
    return this.actor?.getSnapshot();
  }

  get context(): SubagentContext | undefined {
    return this.actor?.getSnapshot().context;
  }

  get signal(): AbortSignal {
    this.controller ??= this.newController();
    return this.controller.signal;
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
    this.record(this.resumed ? 'task.resumed' : 'task.started');
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

  /**
   * Journals an event the actor is about to receive. A store that throws does not stop the task (it
   * would never end): the event goes on, with a `PERSISTENCE_FAILED` warning. False once the run
   * takes no more events.
   */
  journal(event: SubagentEvent): boolean {
    if (this.ended || !this.actor) return false;
    const entry = journalEntry(this.seq++, event);
    try {
      this.host.store.appendJournal(this.spec.taskId, entry);
    } catch (error) {
      this.io.warn(
        'PERSISTENCE_FAILED',
        `The store could not journal ${event.type} (entry ${entry.seq}) of task ${this.spec.taskId}: ${describeThrown(error)}. The task goes on, but its journal misses this entry.`,
      );
    }
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
    this.outcome.end(this.host, this.ending(false), result);
  }

  /**
   * The run as it ends, read once: its final event and info tell the moment its final record does.
   * `ran`: its actor ran, so its counters count.
   */
  private ending(ran: boolean): Ending {
    const at = this.host.clock.now();
    return { spec: this.spec, at, base: this.base(), progress: ran ? this.progress(at) : undefined };
  }

  /** The promise of the task's result. */
  get promise(): Promise<TaskResult> {
    return this.outcome.promise;
  }

  /** The task's result, once it ended (settled: its workspace closed, its result stored). */
  get result(): TaskResult | undefined {
    return this.outcome.result;
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
    this.controller?.abort();
    this.controller = undefined;
    this.toolCalls?.reset();
  }

  turnEnded(): void {
    if (this.host.emitter.listening('task.progress'))
      this.host.emitter.emit('task.progress', this.io.event({ kind: 'turn' as const }));
  }

  private observe(snapshot: SubagentSnapshot): void {
    if (this.ended || snapshot === this.observed) return;
    this.observed = snapshot;
    const taskId = this.spec.taskId;
    if (snapshot.status === 'done') {
      this.saveSnapshot(finalDocument(taskId, snapshot, this.seq));
      this.ended = true;
      if (this.main) return;
      this.outcome.promise.then(() => this.release());
      this.outcome.end(this.host, this.ending(true), toResult(this.spec, snapshot.output as SubagentOutput));
      return;
    }
    this.saveSnapshot(this.produceSnapshot);
    const awaiting = snapshot.status === 'active' && phaseOf(snapshot) === 'awaitingApproval';
    if (awaiting !== this.awaiting) {
      this.awaiting = awaiting;
      this.record(awaiting ? 'task.awaitingApproval' : 'task.resumed');
    }
  }

  /** Records a status the task's state entered (a main agent's host stores none). */
  private record(event: 'task.started' | 'task.resumed' | 'task.awaitingApproval'): void {
    const { store, clock } = this.host;
    const taskId = this.spec.taskId;
    persist(this.host, taskId, `record ${event}`, () =>
      store.appendStatus(statusRecord(taskId, event, clock.now())),
    );
  }

  /**
   * Lets go of the ended task's actor and what its effects held (its tools, tool inputs and abort
   * controller): its info was frozen as it ended, and the table keeps the run as the task's entry.
   */
  private release(): void {
    this.actor = undefined;
    this.observed = undefined;
    this.registry = undefined;
    this.effectIO = undefined;
    this.toolCalls = undefined;
    this.controller = ENDED;
  }

  /** Hands the store the snapshot; a store that throws is a warning, not the end of the task. */
  private saveSnapshot(produce: () => TaskSnapshotDocument): void {
    try {
      this.host.store.saveSnapshot(this.spec.taskId, produce);
    } catch (error) {
      this.io.warn(
        'PERSISTENCE_FAILED',
        `The store could not save the snapshot of task ${this.spec.taskId}: ${describeThrown(error)}. The task goes on; a restore reads its journal.`,
      );
    }
  }

  /**
   * Lets the task go without ending it (the runtime shut down keeping it for a restore): the
   * effects in flight are aborted and nothing more is journaled.
   */
  detach(): void {
    if (this.outcome.result) return;
    this.ended = true;
    this.controller?.abort();
    this.controller = ENDED;
    this.actor = undefined;
  }

  /** The controller of the effects to come: an abort listener that throws is a warning. */
  private newController(): AbortController {
    return guardedController((error) =>
      this.host.emitter.emit('runtime.warning', {
        code: 'LISTENER_FAILED',
        message: `An abort listener in task ${this.spec.taskId} threw: ${describeThrown(error)}. The task went on; fix the tool or the model adapter.`,
        taskId: this.spec.taskId,
      }),
    );
  }

  /**
   * The task's status, derived and never stored: its result's once it ended, else its actor's
   * state, else queued (waiting for a slot).
   */
  get status(): TaskStatus {
    const result = this.outcome.result;
    if (result) return result.status;
    const snapshot = this.snapshot;
    if (!snapshot) return 'queued';
    return phaseOf(snapshot) === 'awaitingApproval' ? 'awaitingApproval' : 'running';
  }

  /** The task's info as of `now` (frozen as it ended). */
  info(now: number): TaskInfo {
    const { result, endedAt, info } = this.outcome;
    if (info) return info;
    return taskInfoOf(this.spec, { status: this.status, result, endedAt }, this.progress(now));
  }

  /**
   * The task's counters as of `now`, read from its actor's context (the one place they are read
   * from it: its events' fields and the runtime's `get` and `list` both come here).
   */
  progress(now: number): TaskProgress | undefined {
    const context = this.context;
    if (!context) return undefined;
    const started = context.startedAt;
    const progress: TaskProgress = {
      turns: context.turns,
      toolCalls: context.toolCalls,
      tokens: context.usage.input + context.usage.output,
      elapsedMs: started ? (context.end?.endedAt ?? now) - started : 0,
    };
    if (started) progress.startedAt = started;
    if (context.modelUsed) progress.model = context.modelUsed;
    return progress;
  }

  /** Fields every event about this task carries. */
  base(): TaskEventBase {
    const now = this.host.clock.now();
    const base = taskEventBase(this.spec, now);
    const progress = this.progress(now);
    if (progress) {
      base.toolCalls = progress.toolCalls;
      base.turns = progress.turns;
      base.elapsedMs = progress.elapsedMs;
      base.tokens = progress.tokens;
    }
    return base;
  }
}

/**
 * The final snapshot document, produced when a store asks. Made outside the run so that the
 * closure a store keeps captures the snapshot alone, never the run and its actor.
 */
function finalDocument(taskId: string, snapshot: SubagentSnapshot, journalLength: number) {
  return () => snapshotDocument(taskId, snapshot, journalLength);
}
