import type { RuntimeWarning, TaskEventBase } from '../events.js';
import type { SubagentEvent } from '../machines/subagent-events.js';
import type { SubagentContext, SubagentOutput } from '../machines/subagent-machine.js';
import { armedDeadline, type WantedEffect, wantedEffect } from '../machines/wanted-effect.js';
import { describeThrown } from '../persistence/plain-json.js';
import type { JournalEntry, TaskSnapshotDocument, TaskSpec } from '../persistence/types.js';
import { SCHEMA_VERSION } from '../persistence/types.js';
import { errorResult } from '../tools/run-tool-call.js';
import type { ToolRegistry } from '../tools/tool-registry.js';
import type { DriverHost } from './driver-host.js';
import { askApproval } from './effects/approval.js';
import { DeadlineTimer } from './effects/deadline-timer.js';
import type { EffectIO } from './effects/effect-io.js';
import { guardedController } from './effects/guarded-signal.js';
import { callModel } from './effects/model-call.js';
import { ToolCalls } from './effects/tool-calls.js';
import type { SubagentRef, SubagentSnapshot } from './subagent-snapshot.js';
import { snapshotDocument, toResult } from './task-results.js';

/**
 * Drives one subagent actor. The machine declares the effect its state wants
 * ({@link wantedEffect}) and the deadline it keeps ({@link armedDeadline}); the driver performs the
 * effect with the module for it (`effects/`: model call, tool calls, approval, deadline timer),
 * journals and feeds back the event it resolves with, and aborts an effect as soon as the state no
 * longer wants it (cancel, deadline, grace).
 */
export class TaskDriver {
  readonly spec: TaskSpec;
  private readonly host: DriverHost;
  private readonly io: EffectIO;
  private readonly tools: ToolCalls;
  private readonly deadline: DeadlineTimer;
  private actor: SubagentRef | undefined;
  private seq = 0;
  private effectKey = '';
  private controller = this.newController();
  /** An effect was started and has not reported back. */
  private inFlight = false;
  /** True once the task reached a final state. */
  ended = false;
  /** Journal events to feed before going live (restore). */
  private replaying = false;
  snapshot: SubagentSnapshot | undefined;
  /**
   * The latest snapshot document. A store may call it late (at its next flush): the driver is then
   * between events, so the snapshot and the journal length agree.
   */
  private readonly produceSnapshot = () => snapshotDocument(this.spec.taskId, this.snapshot!, this.seq);

  constructor(host: DriverHost, spec: TaskSpec, registry: ToolRegistry, journalLength = 0) {
    this.host = host;
    this.spec = spec;
    this.seq = journalLength;
    this.io = {
      host,
      spec,
      registry,
      inputs: new Map(),
      event: (extra) => Object.assign(this.base(), extra),
      warn: (code: RuntimeWarning['code'], message: string) =>
        host.emitter.emit('runtime.warning', { code, message, taskId: spec.taskId }),
    };
    this.tools = new ToolCalls(this.io);
    this.deadline = new DeadlineTimer(host.clock, (at) => this.send({ type: 'deadline.passed', at }));
  }

  get context(): SubagentContext | undefined {
    return this.snapshot?.context;
  }

  /** Starts driving `actor`. With `replay`, those journal events are fed first (not re-journaled). */
  attach(actor: SubagentRef, replay: readonly SubagentEvent[] = []): void {
    this.actor = actor;
    // A spawned child starts after its parent's transition; start it now so replayed events are
    // processed here, with effects off, and not later with effects on.
    actor.start();
    this.snapshot = actor.getSnapshot();
    actor.subscribe({ next: (snapshot) => this.observe(snapshot), error: () => {} });
    if (replay.length) {
      this.replaying = true;
      for (const event of replay) actor.send(event);
      this.replaying = false;
    }
    this.observe(actor.getSnapshot(), true);
  }

  /**
   * Feeds an event to the machine, journaling it first. A store that throws does not stop the
   * task (it would never end): the event is fed anyway, with a `PERSISTENCE_FAILED` warning.
   */
  send(event: SubagentEvent): void {
    if (this.ended || !this.actor) return;
    const entry: JournalEntry = { v: SCHEMA_VERSION, seq: this.seq++, event };
    try {
      this.host.store.appendJournal(this.spec.taskId, entry);
    } catch (error) {
      this.io.warn(
        'PERSISTENCE_FAILED',
        `The store could not journal ${event.type} (entry ${entry.seq}) of task ${this.spec.taskId}: ${describeThrown(error)}. The task goes on, but its journal misses this entry.`,
      );
    }
    this.actor.send(event);
  }

  /** Gives the task a steering message (journaled like every event). */
  steer(text: string): void {
    this.send({ type: 'task.steered', at: this.host.clock.now(), text });
  }

  cancel(reason?: string): void {
    const at = this.host.clock.now();
    this.send(reason ? { type: 'cancel.requested', at, reason } : { type: 'cancel.requested', at });
  }

  private observe(snapshot: SubagentSnapshot, force = false): void {
    if (this.replaying) return;
    if (!force && snapshot === this.snapshot) return;
    this.snapshot = snapshot;
    const taskId = this.spec.taskId;
    if (snapshot.status === 'done') {
      this.saveSnapshot(finalDocument(taskId, snapshot, this.seq));
      this.finish(snapshot);
      return;
    }
    this.saveSnapshot(this.produceSnapshot);
    const wanted = wantedEffect(snapshot);
    const key = wanted?.key ?? '';
    if (key !== this.effectKey) {
      // An effect still in flight that the state no longer wants is aborted. One controller serves
      // every effect of the task and is replaced only after an abort (aborting allocates).
      if (this.inFlight) this.abort();
      const waiting = wanted ? this.io.registry.ready?.() : undefined;
      if (waiting) {
        // The task's tool sources are still answering (an MCP server starting): the effect starts
        // from the then current snapshot once they have.
        const resume = () => {
          if (!this.ended && this.snapshot) this.observe(this.snapshot, true);
        };
        // The sources warn about their own failures; the task goes on with the tools it has.
        void waiting.then(resume, resume);
      } else {
        this.effectKey = key;
        if (wanted) this.perform(wanted, snapshot.context);
      }
    }
    this.deadline.arm(armedDeadline(snapshot));
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

  /** Starts `wanted`; the event it resolves with is fed unless the state moved on meanwhile. */
  private perform(wanted: WantedEffect, context: SubagentContext): void {
    this.inFlight = true;
    const signal = this.controller.signal;
    const key = wanted.key;
    const current = () => !signal.aborted && !this.ended && key === this.effectKey;
    const feed = (event: SubagentEvent) => {
      if (!current()) return false;
      this.send(event);
      return true;
    };
    const work =
      wanted.kind === 'model'
        ? callModel(this.io, context, wanted, signal)
        : wanted.kind === 'tool'
          ? this.tools.run(context, wanted.call, signal, feed)
          : askApproval(this.io, context, wanted.call, signal);
    const deliver = (event: SubagentEvent | undefined) => {
      if (!event || !current()) return;
      this.inFlight = false;
      this.send(event);
      if (event.type === 'model.responded' && this.host.emitter.listening('task.progress'))
        this.host.emitter.emit('task.progress', this.io.event({ kind: 'turn' as const }));
    };
    // An effect never throws across the actor boundary: one that fails is its kind's failure.
    void work
      .then(deliver, (error: unknown) => deliver(effectFailed(wanted, this.host.clock.now(), error)))
      .catch((error: unknown) =>
        this.io.warn(
          'EFFECT_FAILED',
          `Task ${this.spec.taskId}: the event ending its ${wanted.kind} effect could not be recorded: ${describeThrown(error)}`,
        ),
      );
  }

  /**
   * Stops driving without ending the task (the runtime shut down keeping it for a restore): the
   * effect in flight is aborted, the deadline cleared, and nothing more is journaled.
   */
  detach(): void {
    this.ended = true;
    if (this.inFlight) this.controller.abort();
    this.inFlight = false;
    this.deadline.clear();
  }

  private abort(): void {
    this.controller.abort();
    this.controller = this.newController();
    this.inFlight = false;
    this.tools.reset();
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

  /** Fields every event about this task carries. */
  base(): TaskEventBase {
    const context = this.snapshot?.context;
    const now = this.host.clock.now();
    const started = context?.startedAt ?? 0;
    const base: TaskEventBase = {
      taskId: this.spec.taskId,
      agent: this.spec.agent,
      sessionKey: this.spec.sessionKey,
      description: this.spec.description,
      at: now,
      toolCalls: context?.toolCalls ?? 0,
      turns: context?.turns ?? 0,
      elapsedMs: started ? (context?.end?.endedAt ?? now) - started : 0,
      tokens: context ? context.usage.input + context.usage.output : 0,
      depth: this.spec.depth,
    };
    if (this.spec.parentTaskId) base.parentTaskId = this.spec.parentTaskId;
    return base;
  }

  private finish(snapshot: SubagentSnapshot): void {
    if (this.ended) return;
    this.ended = true;
    // An effect in flight (a model call, a tool call, an approval request) is aborted.
    if (this.inFlight) this.controller.abort();
    this.inFlight = false;
    this.deadline.clear();
    const output = snapshot.output as SubagentOutput;
    this.host.finished(this, toResult(this.spec, output));
  }
}

/** The event that ends an effect which threw `error` instead of resolving. */
function effectFailed(wanted: WantedEffect, at: number, error: unknown): SubagentEvent {
  const why = describeThrown(error);
  switch (wanted.kind) {
    case 'model':
      return {
        type: 'model.failed',
        at,
        turn: wanted.turn,
        error: { name: 'TroupeError', code: 'UNKNOWN', message: `The model call failed: ${why}` },
      };
    case 'tool':
      return {
        type: 'tool.finished',
        at,
        toolUseId: wanted.call.toolUseId,
        result: errorResult(wanted.call.toolUseId, `Error: the ${wanted.call.name} call failed: ${why}`),
      };
    case 'approval':
      return {
        type: 'approval.denied',
        at,
        toolUseId: wanted.call.toolUseId,
        reason: `the approval could not be decided: ${why}`,
      };
  }
}

/**
 * The final snapshot document, produced when a store asks. Made outside the driver so that the
 * closure a store keeps captures the snapshot alone, never the driver and its actor.
 */
function finalDocument(taskId: string, snapshot: SubagentSnapshot, journalLength: number) {
  return () => snapshotDocument(taskId, snapshot, journalLength);
}
