import { EventEmitter } from 'eventemitter3';
import type { Clock } from '../clock.js';
import type { AgentDefinition } from '../definitions/types.js';
import type { RuntimeEvents } from '../events.js';
import { textOf } from '../model/content.js';
import type { Message } from '../model/types.js';
import { describeThrown } from '../persistence/plain-json.js';
import type { TaskResult, TaskSpec } from '../persistence/types.js';
import type { Tool } from '../tools/define-tool.js';
import { createToolRegistry, type ToolRegistry } from '../tools/tool-registry.js';
import type { AgentCatalog } from './agent-catalog.js';
import { isThenable } from './emitter.js';
import type { RunHost } from './run-host.js';
import type { RuntimeLimits } from './runtime-limits.js';
import { TaskRun } from './task-run.js';

/** What a session needs from its runtime. */
export interface SessionRuntime {
  readonly agents: AgentCatalog;
  readonly clock: Clock;
  readonly limits: RuntimeLimits;
  /** The main agents' runs in progress, by their task id. */
  readonly sessionRuns: Map<string, TaskRun>;
  /** Creates the session's actor (a child of the supervisor) under `actorId`. */
  openSession(actorId: string, sessionKey: string): void;
  /** Stops the session's actor, and with it a run in progress. */
  closeSession(actorId: string): void;
  /** Starts a main-agent run as a child of the session's actor (its id is the run's task id). */
  startRun(actorId: string, run: TaskRun): void;
  on(name: 'task.announced', listener: (event: RuntimeEvents['task.announced']) => void): () => void;
  baseToolList(): readonly Tool[];
  mainTools(): Tool[];
  graceMsFor(timeoutMs: number): number;
  withToolSources(registry: ToolRegistry, spec: TaskSpec, definition: AgentDefinition): ToolRegistry;
}

/** Options of `runtime.createSession`. */
export interface SessionOptions {
  /** Every task the session starts carries this key. Default: a new unique key. */
  sessionKey?: string;
  /** The main agent: a registered agent's name (default `main` if registered), or a definition. */
  agent?: string | AgentDefinition;
  /** Conversation to start from. */
  messages?: Message[];
}

/** A message a session produced: an assistant reply, or an announcement it received. */
export interface SessionMessage {
  kind: 'reply' | 'announcement';
  text: string;
  /** The result of the main-agent run that produced a reply. */
  result?: TaskResult;
}

/** What `session.send` resolves to. */
export interface SessionReply {
  text: string;
  result: TaskResult;
}

/** The main agent's default system prompt, used when no `main` agent is registered. */
export const DEFAULT_MAIN_PROMPT = `You are the main agent of a coding assistant. You help the user with software tasks in their workspace.

Delegate work that needs many steps or would fill your context (searching a codebase, investigating a bug, reviewing code, planning a change) to a specialised sub-agent with the task tool; start independent tasks in parallel by calling task several times in one reply. Use spawn for work the user need not wait for; its result will come back to you, and you then tell the user what it means.

Sub-agents see nothing of this conversation unless their prompt says it, so give each one a complete, self-contained prompt. When a sub-agent's answer comes back, check it, combine the answers, and reply to the user in plain language, without mentioning task ids or internal details. Be concise.`;

let sessionCounter = 0;

/**
 * A main-agent session: a conversation whose agent has the host's tools plus the task tools. Each
 * `send` runs the same turn loop as a sub-agent (up to `limits.mainMaxTurns` turns). Results of its
 * background tasks are announced into the conversation; when the session is idle that starts a
 * main-agent turn that tells the user.
 */
export class Session {
  readonly sessionKey: string;
  /** The id (and system id) of the session's actor in the runtime's actor system. */
  readonly actorId = `session:${++sessionCounter}`;
  private conversation: Message[];
  private readonly runtime: SessionRuntime;
  private readonly host: RunHost;
  private readonly definition: AgentDefinition;
  private readonly events = new EventEmitter();
  private chain: Promise<unknown> = Promise.resolve();
  private busy = 0;
  private current: TaskRun | undefined;
  private readonly unsubscribe: () => void;
  private closed = false;

  constructor(runtime: SessionRuntime, host: RunHost, options: SessionOptions) {
    this.runtime = runtime;
    this.host = host;
    this.sessionKey = options.sessionKey ?? `session-${sessionCounter}-${runtime.clock.now().toString(36)}`;
    this.conversation = options.messages ? [...options.messages] : [];
    const agent = options.agent ?? 'main';
    this.definition =
      typeof agent === 'string'
        ? (runtime.agents.get(agent) ??
          (agent === 'main'
            ? { name: 'main', description: 'The main agent.', systemPrompt: DEFAULT_MAIN_PROMPT }
            : runtime.agents.require(agent)))
        : agent;
    this.unsubscribe = runtime.on('task.announced', (event) => {
      if (event.sessionKey !== this.sessionKey || this.closed) return;
      this.emit({ kind: 'announcement', text: event.message });
      void this.enqueue(event.message).catch(() => {});
    });
    runtime.openSession(this.actorId, this.sessionKey);
  }

  /** The conversation so far. */
  get messages(): readonly Message[] {
    return this.conversation;
  }

  /** True while a main-agent run is in progress. */
  get isBusy(): boolean {
    return this.busy > 0;
  }

  /** Sends a user message; resolves with the main agent's reply once its run ends. */
  send(text: string): Promise<SessionReply> {
    return this.enqueue(text);
  }

  /**
   * Listens to replies and announcements as they happen. A listener that throws is reported as a
   * `runtime.warning` (`LISTENER_FAILED`); the reply and the other listeners are not affected.
   */
  on(event: 'message', listener: (message: SessionMessage) => void): () => void {
    const failed = (error: unknown) =>
      this.host.emitter.emit('runtime.warning', {
        code: 'LISTENER_FAILED',
        message: `A session message listener threw: ${describeThrown(error)}. The session carried on; fix the listener.`,
      });
    const guarded = (message: SessionMessage) => {
      try {
        const returned: unknown = listener(message);
        if (isThenable(returned)) returned.then(undefined, failed);
      } catch (error) {
        failed(error);
      }
    };
    this.events.on(event, guarded);
    return () => {
      this.events.off(event, guarded);
    };
  }

  /** Cancels the current main-agent run (and, through its abort, its foreground tasks). */
  interrupt(): boolean {
    if (!this.current) return false;
    this.current.cancel('Interrupted by the user.');
    return true;
  }

  /**
   * Forgets the conversation: the next message starts a new one with the same session key, so
   * the session's tasks, their announcements and its "always allow" answers stay. Returns false
   * (and forgets nothing) while a run is in progress or waiting.
   */
  clear(): boolean {
    if (this.busy > 0) return false;
    this.conversation = [];
    return true;
  }

  /** Stops listening for announcements. Background tasks are not cancelled (see `cancelSession`). */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.runtime.closeSession(this.actorId);
    this.unsubscribe();
    this.events.removeAllListeners();
  }

  private emit(message: SessionMessage): void {
    this.events.emit('message', message);
  }

  private enqueue(text: string): Promise<SessionReply> {
    this.busy++;
    // `busy` drops before the caller's await resumes, so `isBusy` is false right after `send`.
    const run = this.chain.then(() =>
      this.run(text).finally(() => {
        this.busy--;
      }),
    );
    this.chain = run.catch(() => {});
    return run;
  }

  private run(text: string): Promise<SessionReply> {
    const runtime = this.runtime;
    const limits = runtime.limits;
    const taskId = nextRunId(runtime, this.sessionKey);
    const pool = [...runtime.baseToolList(), ...runtime.mainTools()];
    const registry = createToolRegistry(pool, {
      allow: this.definition.tools,
      deny: this.definition.disallowedTools,
    });
    const messages: Message[] = [...this.conversation, { role: 'user', content: text }];
    const spec: TaskSpec = {
      taskId,
      agent: this.definition.name,
      description: 'main agent',
      prompt: text,
      sessionKey: this.sessionKey,
      depth: 0,
      background: false,
      announce: false,
      model: runtime.agents.resolveModel(this.definition, undefined, undefined),
      system: this.definition.systemPrompt,
      tools: [...registry.names],
      limits: {
        maxTurns: this.definition.maxTurns ?? limits.mainMaxTurns,
        tokenBudget: this.definition.tokenBudget ?? Number.MAX_SAFE_INTEGER,
        timeoutMs: this.definition.timeoutMs ?? 24 * 3_600_000,
      },
      messages,
      createdAt: runtime.clock.now(),
    };
    spec.graceMs = runtime.graceMsFor(spec.limits.timeoutMs);
    return new Promise<SessionReply>((resolve) => {
      const host: RunHost = {
        ...this.host,
        finished: (task, result) => {
          runtime.sessionRuns.delete(taskId);
          this.current = undefined;
          const context = task.context;
          if (context) this.conversation = closeConversation(context.messages, result);
          const own = ownOutput(result, context?.messages.slice(messages.length) ?? []);
          const reply = typeof own.output === 'string' ? own.output : JSON.stringify(own.output);
          this.emit({ kind: 'reply', text: reply, result: own });
          resolve({ text: reply, result: own });
        },
      };
      const run = new TaskRun(host, spec, runtime.withToolSources(registry, spec, this.definition));
      runtime.sessionRuns.set(taskId, run);
      this.current = run;
      runtime.startRun(this.actorId, run);
    });
  }
}

/** Runs started so far per session key, per runtime (several `Session`s may share a key). */
const runCounts = new WeakMap<SessionRuntime, Map<string, number>>();

/**
 * The id of a session's next main-agent run: `<session key>#<n>`, counted per key across every
 * session of the runtime, so that two sessions opened with the same key never share a run id
 * (drivers, approvals and the main tools find a run by it).
 */
function nextRunId(runtime: SessionRuntime, sessionKey: string): string {
  let counts = runCounts.get(runtime);
  if (!counts) {
    counts = new Map();
    runCounts.set(runtime, counts);
  }
  const count = (counts.get(sessionKey) ?? 0) + 1;
  counts.set(sessionKey, count);
  return `${sessionKey}#${count}`;
}

/**
 * A run that did not complete keeps as output only text it produced itself: the best answer of
 * the conversation before it (an earlier reply, an earlier `(No reply.)`) is not this run's answer.
 */
function ownOutput(result: TaskResult, produced: readonly Message[]): TaskResult {
  if (result.status === 'completed') return result;
  let output = '';
  for (const message of produced) {
    if (message.role !== 'assistant') continue;
    const text = textOf(message.content);
    if (text) output = text;
  }
  return output === result.output ? result : { ...result, output };
}

/**
 * The conversation to keep after a run: unanswered tool calls are answered with an error so the
 * next request is valid, saying why they were not run: the run was cancelled, or it reached its
 * limit and the calls were made on its grace turn (which runs no tools).
 */
function closeConversation(messages: readonly Message[], result: TaskResult): Message[] {
  const out = [...messages];
  const last = out[out.length - 1];
  if (last?.role === 'assistant' && typeof last.content !== 'string') {
    const uses = last.content.filter((block) => block.type === 'tool_use');
    if (uses.length) {
      const limit =
        result.terminateReason === 'MAX_TURNS' || result.terminateReason === 'TIMEOUT'
          ? result.terminateReason
          : undefined;
      out.push({
        role: 'user',
        content: uses.map((use) => ({
          type: 'tool_result' as const,
          tool_use_id: use.id,
          content: limit
            ? `Not run: the run reached its limit (${limit}), and tool calls on its final turn are not run.`
            : 'Interrupted: the run was cancelled before this call finished.',
          is_error: true,
        })),
      });
      out.push({
        role: 'assistant',
        content: [{ type: 'text', text: limit ? '(Stopped at the limit.)' : '(Interrupted.)' }],
      });
    }
  } else if (last?.role === 'user') {
    out.push({
      role: 'assistant',
      content: [{ type: 'text', text: textOf(last.content) ? '(No reply.)' : '(No reply.)' }],
    });
  }
  return out;
}
