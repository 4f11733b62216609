import type { Clock } from '../clock.js';
import { serializeError } from '../errors.js';
import type { ApprovalRequest, RuntimeWarning, TaskEventBase } from '../events.js';
import type { OutputCheck, SubagentEvent, ToolCallPlan } from '../machines/subagent-events.js';
import type { SubagentContext, SubagentOutput } from '../machines/subagent-machine.js';
import { textOf, toolUsesOf } from '../model/content.js';
import type {
  ModelAdapter,
  ModelDelta,
  ModelRequest,
  ToolResultBlock,
  ToolSpec,
  ToolUseBlock,
} from '../model/types.js';
import { validateModelResponse } from '../model/validate-response.js';
import type { JournalEntry, TaskResult, TaskSpec, TaskStore } from '../persistence/types.js';
import { SCHEMA_VERSION } from '../persistence/types.js';
import type { ToolAccess } from '../tools/define-tool.js';
import { checkToolCall, errorResult, executeToolCall } from '../tools/run-tool-call.js';
import type { ToolRegistry } from '../tools/tool-registry.js';
import type { RuntimeEmitter } from './emitter.js';
import {
  type ApprovalDisposition,
  phaseOf,
  type SubagentRef,
  type SubagentSnapshot,
} from './subagent-snapshot.js';
import { snapshotDocument, toResult } from './task-results.js';

/** What a driver needs from its runtime. */
export interface DriverHost {
  readonly clock: Clock;
  readonly model: ModelAdapter;
  readonly store: TaskStore;
  readonly emitter: RuntimeEmitter;
  readonly maxTokens: number;
  /** Policy decision when a response arrives (auto / deny / remembered "always"). */
  dispositionFor(spec: TaskSpec, tool: string): ApprovalDisposition;
  /** Asks the host (or the policy function); resolves through `driver.resolveApproval`. */
  requestApproval(driver: TaskDriver, request: ApprovalRequest): void;
  /** Reports a write/execute call the policy decided without asking (`approval.resolved`). */
  reportAutomaticDecision(request: ApprovalRequest, decision: 'approve' | 'deny', reason?: string): void;
  /** The pending approval was decided; the task carries on. */
  approvalResolved(driver: TaskDriver): void;
  /** Withdraws an outstanding approval request (task ended). */
  withdrawApproval(approvalId: string): void;
  checkOutput(spec: TaskSpec, text: string): OutputCheck | undefined;
  /** Called once, when the machine reaches a final state. */
  finished(driver: TaskDriver, result: TaskResult): void;
}

/**
 * Drives one subagent actor: performs the effect its state asks for (a model call, a tool call, an
 * approval request), feeds the outcome back as an event, journals every event it feeds, keeps the
 * deadline timer armed, and aborts an effect as soon as the state no longer wants it.
 */
export class TaskDriver {
  readonly spec: TaskSpec;
  private readonly host: DriverHost;
  private readonly registry: ToolRegistry;
  private actor: SubagentRef | undefined;
  private seq = 0;
  private effectKey = '';
  private controller = new AbortController();
  /** An effect was started and has not reported back. */
  private inFlight = false;
  /** Read calls of the current turn already running, by tool_use id. */
  private readonly running = new Map<string, Promise<ToolResultBlock>>();
  /** Tool inputs already validated when the response arrived, by tool_use id. */
  private readonly parsedInputs = new Map<string, unknown>();
  private timer: unknown;
  private timerAt = 0;
  private approvalId = '';
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
    this.registry = registry;
    this.seq = journalLength;
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

  /** Feeds an event to the machine, journaling it first. */
  send(event: SubagentEvent): void {
    if (this.ended || !this.actor) return;
    const entry: JournalEntry = { v: SCHEMA_VERSION, seq: this.seq++, event };
    this.host.store.appendJournal(this.spec.taskId, entry);
    this.actor.send(event);
  }

  /** Host decision on the pending approval. */
  resolveApproval(toolUseId: string, decision: 'approve' | 'deny', reason?: string): void {
    // A policy function may answer after the task ended (cancelled meanwhile): nothing to resume.
    if (this.ended) return;
    const at = this.host.clock.now();
    this.approvalId = '';
    this.host.approvalResolved(this);
    if (decision === 'approve') this.send({ type: 'approval.granted', at, toolUseId });
    else
      this.send(
        reason
          ? { type: 'approval.denied', at, toolUseId, reason }
          : { type: 'approval.denied', at, toolUseId },
      );
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
      // The final document captures only the snapshot, so a store that keeps it keeps no driver.
      const journalLength = this.seq;
      this.host.store.saveSnapshot(taskId, () => snapshotDocument(taskId, snapshot, journalLength));
      this.finish(snapshot);
      return;
    }
    this.host.store.saveSnapshot(taskId, this.produceSnapshot);
    this.react(snapshot);
  }

  private react(snapshot: SubagentSnapshot): void {
    const context = snapshot.context;
    const phase = phaseOf(snapshot);
    let key = '';
    if (phase === 'thinking' || phase === 'grace') key = `${phase}:${context.turns + 1}`;
    else if (phase === 'acting') {
      const call = context.step.plan[context.step.results.length];
      if (call) key = `tool:${call.toolUseId}`;
    }
    if (key !== this.effectKey) {
      // An effect still in flight that the state no longer wants is aborted. One controller serves
      // every effect of the task and is replaced only after an abort (aborting allocates).
      if (this.inFlight) {
        this.controller.abort();
        this.controller = new AbortController();
        this.inFlight = false;
        this.running.clear();
      }
      this.effectKey = key;
      if (key) {
        this.inFlight = true;
        if (phase === 'acting') this.runTool(context, key);
        else void this.callModel(context, phase === 'grace', key);
      }
    }
    if (phase === 'awaitingApproval') {
      this.clearTimer();
      const call = context.step.plan[context.step.results.length];
      if (call && this.approvalId === '') this.askApproval(context, call);
    } else if (phase !== 'pending') {
      this.armTimer(context.deadline);
    }
  }

  private armTimer(deadline: number): void {
    if (this.timer !== undefined && this.timerAt === deadline) return;
    this.clearTimer();
    this.timerAt = deadline;
    const delay = Math.max(0, deadline - this.host.clock.now());
    this.timer = this.host.clock.setTimeout(() => {
      this.timer = undefined;
      this.send({ type: 'deadline.passed', at: Math.max(this.host.clock.now(), deadline) });
    }, delay);
  }

  private clearTimer(): void {
    if (this.timer !== undefined) this.host.clock.clearTimeout(this.timer);
    this.timer = undefined;
    this.timerAt = 0;
  }

  private async callModel(context: SubagentContext, grace: boolean, key: string): Promise<void> {
    const signal = this.controller.signal;
    const turn = context.turns + 1;
    const spec = this.spec;
    const emitter = this.host.emitter;
    const onDelta = emitter.listening('task.progress')
      ? (delta: ModelDelta) => {
          if (delta.type === 'tool_use') return;
          const text = delta.type === 'text' ? delta.text : delta.thinking;
          emitter.emit('task.progress', this.event({ kind: delta.type, text }));
        }
      : undefined;
    const request: ModelRequest = {
      model: spec.model,
      system: spec.system,
      messages: context.messages,
      tools: grace ? [] : (this.registry.specs as ToolSpec[]),
      maxTokens: this.host.maxTokens,
      taskId: spec.taskId,
      agent: spec.agent,
    };
    let raw: unknown;
    try {
      raw = await this.host.model.generate(request, signal, onDelta ? { onDelta } : undefined);
    } catch (error) {
      if (this.stale(key, signal)) return;
      this.inFlight = false;
      this.send({ type: 'model.failed', at: this.host.clock.now(), turn, error: serializeError(error) });
      return;
    }
    if (this.stale(key, signal)) return;
    this.inFlight = false;
    // The adapter is a trust boundary: a malformed response is an error of this task, not a crash.
    const checked = validateModelResponse(raw, request);
    if (!checked.ok) {
      const error = { name: 'ModelError', code: 'MODEL_RESPONSE_INVALID', message: checked.message };
      this.send({ type: 'model.failed', at: this.host.clock.now(), turn, error });
      return;
    }
    const response = checked.response;
    if (checked.usageEstimated)
      this.warn(
        'USAGE_ESTIMATED',
        `The model reported no valid usage; estimated ${response.usage.input} input and ${response.usage.output} output tokens from the sizes of the request and the response.`,
      );
    const uses = grace ? [] : toolUsesOf(response.content);
    const seen = new Set<string>();
    const plan = uses.map((use) => this.planCall(use, seen, checked.oversizedInputs));
    const event: SubagentEvent = { type: 'model.responded', at: this.host.clock.now(), turn, response, plan };
    if (!grace && uses.length === 0 && spec.outputSchema) {
      const check = this.host.checkOutput(spec, textOf(response.content));
      if (check) event.outputCheck = check;
    }
    this.send(event);
    if (emitter.listening('task.progress'))
      emitter.emit('task.progress', this.event({ kind: 'turn' as const }));
  }

  /** Emits `runtime.warning` about this task. */
  private warn(code: RuntimeWarning['code'], message: string): void {
    this.host.emitter.emit('runtime.warning', { code, message, taskId: this.spec.taskId });
  }

  private planCall(
    use: ToolUseBlock,
    seen: Set<string>,
    oversized: ReadonlyMap<string, string>,
  ): ToolCallPlan {
    const reject = (message: string): ToolCallPlan => ({
      toolUseId: use.id,
      name: use.name,
      disposition: 'rejected',
      result: errorResult(use.id, message),
    });
    if (seen.has(use.id)) {
      this.warn(
        'DUPLICATE_TOOL_USE_ID',
        `The model used the tool_use id "${use.id}" twice in one response; the repeat was not run.`,
      );
      return reject(
        `Error: the tool_use id "${use.id}" was already used in this response; this call was not run. Give every call its own id.`,
      );
    }
    seen.add(use.id);
    const tooBig = oversized.get(use.id);
    if (tooBig !== undefined) {
      this.warn(
        'TOOL_INPUT_TOO_LARGE',
        `The input of the ${use.name} call "${use.id}" was dropped: ${tooBig}.`,
      );
      return reject(
        `Error: the input of this ${use.name} call was not accepted: ${tooBig}. Send a smaller, flatter input.`,
      );
    }
    const checked = checkToolCall(this.registry, use);
    if (!checked.ok)
      return { toolUseId: use.id, name: use.name, disposition: 'rejected', result: checked.result };
    this.parsedInputs.set(use.id, checked.input);
    const tool = this.registry.get(use.name)!;
    if (tool.access === 'read')
      return { toolUseId: use.id, name: use.name, access: 'read', disposition: 'run' };
    const disposition = this.host.dispositionFor(this.spec, tool.name);
    if (disposition !== 'approval' && this.host.emitter.listening('approval.resolved')) {
      this.host.reportAutomaticDecision(
        this.approvalRequest(use, tool.name, tool.access),
        disposition === 'run' ? 'approve' : 'deny',
        typeof disposition === 'object' ? disposition.deny : undefined,
      );
    }
    if (typeof disposition === 'object')
      return {
        toolUseId: use.id,
        name: use.name,
        disposition: 'rejected',
        result: errorResult(use.id, `Permission to run ${tool.name} was denied: ${disposition.deny}`),
      };
    return { toolUseId: use.id, name: use.name, access: tool.access, disposition };
  }

  private findUse(context: SubagentContext, toolUseId: string): ToolUseBlock | undefined {
    const last = context.messages[context.messages.length - 1];
    if (!last || typeof last.content === 'string') return undefined;
    for (const block of last.content) if (block.type === 'tool_use' && block.id === toolUseId) return block;
    return undefined;
  }

  private stale(key: string, signal: AbortSignal): boolean {
    return signal.aborted || this.ended || key !== this.effectKey;
  }

  private runTool(context: SubagentContext, key: string): void {
    const call = context.step.plan[context.step.results.length];
    if (!call || call.disposition === 'rejected') return;
    const use = this.findUse(context, call.toolUseId);
    const toolUseId = call.toolUseId;
    if (!use) {
      this.inFlight = false;
      this.send({
        type: 'tool.finished',
        at: this.host.clock.now(),
        toolUseId,
        result: errorResult(toolUseId, 'Error: tool call not found.'),
      });
      return;
    }
    if (call.access !== 'read' && context.step.inFlight.includes(toolUseId)) {
      // Started before a crash and never finished: never run a write/execute tool twice.
      this.inFlight = false;
      this.send({
        type: 'tool.finished',
        at: this.host.clock.now(),
        toolUseId,
        result: errorResult(
          toolUseId,
          `Error: the ${call.name} call was interrupted (the runtime stopped while it was running); its outcome is unknown. Check the current state before trying again.`,
        ),
      });
      return;
    }
    if (call.disposition === 'run' && call.access === 'read') {
      this.startReadCalls(context);
      const pending = this.running.get(toolUseId);
      if (pending) {
        const signal = this.controller.signal;
        void pending.then((result) => {
          if (this.stale(key, signal)) return;
          this.running.delete(toolUseId);
          this.inFlight = false;
          this.send({ type: 'tool.finished', at: this.host.clock.now(), toolUseId, result });
        });
        return;
      }
    }
    void this.executeTool(call.access, use, key);
  }

  /**
   * Starts, all at once, the next call and every following call of the turn that is a `read` call
   * needing no approval: several `task` calls in one reply run in parallel. Their results still
   * enter the machine in the order of the calls. Write and execute calls run one at a time.
   */
  private startReadCalls(context: SubagentContext): void {
    const { plan, results } = context.step;
    const signal = this.controller.signal;
    for (let index = results.length; index < plan.length; index++) {
      const call = plan[index]!;
      if (call.disposition !== 'run' || call.access !== 'read') break;
      if (this.running.has(call.toolUseId)) continue;
      const use = this.findUse(context, call.toolUseId);
      if (!use) break;
      const checked = this.validInput(use);
      this.running.set(
        call.toolUseId,
        checked.ok ? this.invoke(use, checked.input, signal) : Promise.resolve(checked.result),
      );
    }
  }

  private validInput(
    use: ToolUseBlock,
  ): { ok: true; input: unknown } | { ok: false; result: ToolResultBlock } {
    if (this.parsedInputs.has(use.id)) {
      const input = this.parsedInputs.get(use.id);
      this.parsedInputs.delete(use.id);
      return { ok: true, input };
    }
    // After a restore the validated input is not in memory: check again.
    return checkToolCall(this.registry, use);
  }

  /** Runs one tool call, emitting `tool.started` and `tool.finished`. */
  private invoke(use: ToolUseBlock, input: unknown, signal: AbortSignal): Promise<ToolResultBlock> {
    const host = this.host;
    const emitter = host.emitter;
    const started = host.clock.now();
    if (emitter.listening('tool.started'))
      emitter.emit('tool.started', this.event({ toolUseId: use.id, tool: use.name, input: use.input }));
    const context = {
      signal,
      taskId: this.spec.taskId,
      agent: this.spec.agent,
      toolUseId: use.id,
      sessionKey: this.spec.sessionKey,
    };
    return executeToolCall(this.registry, use, input, context).then((result) => {
      if (!signal.aborted && emitter.listening('tool.finished'))
        emitter.emit(
          'tool.finished',
          this.event({
            toolUseId: use.id,
            tool: use.name,
            isError: result.is_error === true,
            durationMs: host.clock.now() - started,
          }),
        );
      return result;
    });
  }

  private async executeTool(access: string, use: ToolUseBlock, key: string): Promise<void> {
    const host = this.host;
    const signal = this.controller.signal;
    const checked = this.validInput(use);
    if (!checked.ok) {
      this.inFlight = false;
      this.send({ type: 'tool.finished', at: host.clock.now(), toolUseId: use.id, result: checked.result });
      return;
    }
    if (access !== 'read') {
      // Journal the start durably before the side effect, so a crash never runs it twice.
      this.send({ type: 'tool.started', at: host.clock.now(), toolUseId: use.id });
      try {
        await host.store.flush();
      } catch (error) {
        if (this.stale(key, signal)) return;
        this.inFlight = false;
        this.send({
          type: 'tool.finished',
          at: host.clock.now(),
          toolUseId: use.id,
          result: errorResult(
            use.id,
            `Error: not run, the task store could not record it: ${(error as Error).message}`,
          ),
        });
        return;
      }
      if (this.stale(key, signal)) return;
    }
    const result = await this.invoke(use, checked.input, signal);
    if (this.stale(key, signal)) return;
    this.inFlight = false;
    this.send({ type: 'tool.finished', at: host.clock.now(), toolUseId: use.id, result });
  }

  private askApproval(context: SubagentContext, call: ToolCallPlan): void {
    if (call.disposition !== 'approval') return;
    const use = this.findUse(context, call.toolUseId);
    const request = this.approvalRequest(
      use ?? { type: 'tool_use', id: call.toolUseId, name: call.name, input: undefined },
      call.name,
      call.access,
    );
    this.approvalId = request.id;
    this.host.requestApproval(this, request);
  }

  private approvalRequest(use: ToolUseBlock, tool: string, access: ToolAccess): ApprovalRequest {
    return {
      id: `${this.spec.taskId}:${use.id}`,
      taskId: this.spec.taskId,
      agent: this.spec.agent,
      sessionKey: this.spec.sessionKey,
      description: this.spec.description,
      tool,
      access,
      toolUseId: use.id,
      input: use.input,
      background: this.spec.background,
      requestedAt: this.host.clock.now(),
    };
  }

  /** An event about this task: the common fields plus `extra` (one object, no spreading). */
  private event<T extends object>(extra: T): TaskEventBase & T {
    return Object.assign(this.base(), extra);
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
    if (this.inFlight) this.controller.abort();
    this.inFlight = false;
    this.clearTimer();
    if (this.approvalId) this.host.withdrawApproval(this.approvalId);
    const output = snapshot.output as SubagentOutput;
    this.host.finished(this, toResult(this.spec, output));
  }
}
