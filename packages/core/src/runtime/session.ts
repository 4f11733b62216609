import { EventEmitter } from 'eventemitter3';
import type { ActorRefFrom } from 'xstate';
import type { AgentDefinition } from '../definitions/types.js';
import { TroupeError } from '../errors.js';
import type { RuntimeEvents } from '../events.js';
import type { SessionEmitted, sessionMachine } from '../machines/session-machine.js';
import { type AgentMemory, memoryScopeOf } from '../memory/agent-memory.js';
import type { Message } from '../model/types.js';
import { machineInputFromSpec } from '../persistence/machine-input.js';
import { describeThrown } from '../persistence/plain-json.js';
import type { TaskResult, TaskSpec, TaskStore } from '../persistence/types.js';
import type { Tool } from '../tools/define-tool.js';
import type { ToolRegistry } from '../tools/tool-registry.js';
import { isThenable } from './emitter.js';
import { freezeTool } from './main-tools.js';
import { type PlanTooling, prepareTask, type TaskPlanner } from './prepare-task.js';
import type { RunHost } from './run-host.js';
import { recordSessionRun } from './session-ledger.js';
import { mainAgentBriefing } from './session-memory.js';
import { withSkillTool } from './session-skills.js';
import type { SubagentRef } from './subagent-snapshot.js';
import { toResult } from './task-results.js';
import { TaskRun } from './task-run.js';

/** A session's actor (a child of the supervisor). */
export type SessionActor = ActorRefFrom<typeof sessionMachine>;

/** What a session needs from its runtime: to plan its runs like tasks, and its actor. */
export interface SessionRuntime extends TaskPlanner {
  /** Creates the session's actor (a child of the supervisor) under `actorId`, starting from `conversation`. */
  openSession(actorId: string, sessionKey: string, conversation: readonly Message[]): SessionActor;
  /** Stops the session's actor, and with it a run in progress. */
  closeSession(actorId: string): void;
  /** Lets `run` follow its actor (a child of the session's actor) and starts it. */
  startRun(run: TaskRun, actor: SubagentRef): void;
  on(name: 'task.announced', listener: (event: RuntimeEvents['task.announced']) => void): () => void;
  /** Where each ended main-agent run is stored, for the usage ledger (see `recordSessionRun`). */
  readonly store: TaskStore;
  /** The host's agent memory: a main agent with `memory` is told of it when a conversation starts. */
  readonly agentMemory: AgentMemory | undefined;
  /** What an agent is given: a main agent's run gets its tool sources and memory tools (`withToolSources`). */
  readonly tooling: PlanTooling & {
    withToolSources(registry: ToolRegistry, spec: TaskSpec, definition: AgentDefinition): ToolRegistry;
  };
  /** The `skill` tool main agents get when the runtime has skills (Claude Code's `Skill`). */
  readonly skillTool: Tool | undefined;
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

/** A message's run, planned when the message was sent, and who waits for its reply. */
interface PlannedRun {
  spec: TaskSpec;
  registry: ToolRegistry;
  resolve(reply: SessionReply): void;
  reject(error: unknown): void;
}

/**
 * A main-agent session: a conversation whose agent has the host's tools plus the task tools. The
 * session's actor (`machines/session-machine.ts`) holds the conversation and the messages that
 * wait; this object is its face. Each `send` plans a run with `prepareTask`, as a task is planned,
 * and the actor runs it when the runs before it have ended (up to `limits.mainMaxTurns` turns).
 * Results of its background tasks are announced into the conversation; when the session is idle
 * that starts a main-agent turn that tells the user.
 */
export class Session {
  readonly sessionKey: string;
  /** The id (and system id) of the session's actor in the runtime's actor system. */
  readonly actorId = `session:${++sessionCounter}`;
  private readonly runtime: SessionRuntime;
  private readonly host: RunHost;
  private readonly definition: AgentDefinition;
  private readonly actor: SessionActor;
  private readonly events = new EventEmitter();
  /** Runs planned and not yet replied, by run id. */
  private readonly planned = new Map<string, PlannedRun>();
  private readonly unsubscribe: () => void;
  private closed = false;
  /** The main tools shown since the first run, and the agents the `task` tool described then. */
  private shownTools: Tool[] | undefined;
  private shownAgents: Map<string, string> | undefined;
  /** The main agent's memory briefing for this conversation, read at its first message (agents with `memory`). */
  private briefing: Promise<string | undefined> | undefined;
  /** Whether this conversation's first message has been sent (it carries the briefing). */
  private briefed: boolean;

  constructor(runtime: SessionRuntime, host: RunHost, options: SessionOptions) {
    this.runtime = runtime;
    this.host = host;
    this.sessionKey = options.sessionKey ?? `session-${sessionCounter}-${runtime.clock.now().toString(36)}`;
    const agent = options.agent ?? 'main';
    this.definition =
      typeof agent === 'string'
        ? (runtime.agents.get(agent) ??
          (agent === 'main'
            ? { name: 'main', description: 'The main agent.', systemPrompt: DEFAULT_MAIN_PROMPT }
            : runtime.agents.require(agent)))
        : agent;
    this.briefed = (options.messages?.length ?? 0) > 0;
    this.actor = runtime.openSession(this.actorId, this.sessionKey, options.messages ?? []);
    this.actor.on('run.replied', (event) => this.replied(event));
    this.unsubscribe = runtime.on('task.announced', (event) => {
      if (event.sessionKey !== this.sessionKey || this.closed) return;
      this.emit({ kind: 'announcement', text: event.message });
      void this.send(event.message).catch(() => {});
    });
  }

  /** The conversation so far. */
  get messages(): readonly Message[] {
    return this.actor.getSnapshot().context.conversation;
  }

  /** True while a main-agent run is in progress or a message waits for one. */
  get isBusy(): boolean {
    return this.actor.getSnapshot().value !== 'idle';
  }

  /**
   * Sends a user message; resolves with the main agent's reply once its run ends. Rejects with a
   * `TroupeError` (`RUNTIME_STOPPED`) once the session is closed.
   */
  send(text: string): Promise<SessionReply> {
    const briefing = this.briefingForMessage();
    // Without agent memory a message is planned at once; with it, every message waits for the
    // conversation's briefing, in the order sent.
    return briefing ? briefing.then((brief) => this.plan(text, brief)) : this.plan(text, undefined);
  }

  /**
   * The memory briefing this message waits for (the first message of a conversation gets its text,
   * later ones wait for it to be read), or undefined when the main agent has no agent memory.
   */
  private briefingForMessage(): Promise<string | undefined> | undefined {
    if (!this.runtime.agentMemory || !memoryScopeOf(this.definition)) return undefined;
    this.briefing ??= mainAgentBriefing(
      this.runtime.agentMemory,
      this.definition,
      `${this.sessionKey}#memory`,
      (message) => this.host.emitter.emit('runtime.warning', { code: 'MEMORY_FAILED', message }),
    );
    const first = !this.briefed;
    this.briefed = true;
    return first ? this.briefing : this.briefing.then(() => undefined);
  }

  private plan(text: string, briefing: string | undefined): Promise<SessionReply> {
    return new Promise<SessionReply>((resolve, reject) => {
      if (this.closed) throw new TroupeError('RUNTIME_STOPPED', `Session ${this.actorId} is closed.`);
      const { mainTools, note } = this.mainToolsForRun();
      // Claude Code's `initialPrompt`: the first user turn of a conversation with this main agent.
      const initial = this.messages.length === 0 ? this.definition.initialPrompt : undefined;
      const { spec, registry } = withSkillTool(
        prepareTask(
          this.runtime,
          {
            agent: this.definition.name,
            prompt: [initial, briefing, note, text].filter((part) => part !== undefined).join('\n\n'),
            description: 'main agent',
            sessionKey: this.sessionKey,
          },
          nextRunId(this.runtime, this.sessionKey),
          { definition: this.definition, mainTools },
        ),
        this.runtime.skillTool,
        this.runtime.agents.selectionFor(this.definition),
      );
      this.planned.set(spec.taskId, { spec, registry, resolve, reject });
      this.actor.send({ type: 'message.received', run: machineInputFromSpec(spec), system: spec.system });
    });
  }

  /**
   * The main tools of this session's runs: those of its first run, with the `task` tool's spec
   * frozen then (a registry change would otherwise rewrite the whole cached prefix of the
   * conversation: tools come first in it). Agents registered or redescribed since are announced
   * once, in a note before the next user message, and can be started like the others.
   */
  private mainToolsForRun(): { mainTools: readonly Tool[]; note?: string } {
    const agents = this.runtime.agents.list();
    if (!this.shownTools || !this.shownAgents) {
      this.shownTools = this.runtime.mainTools().map(freezeTool);
      this.shownAgents = new Map(agents.map((agent) => [agent.name, agent.description]));
      return { mainTools: this.shownTools };
    }
    const added = agents.filter((agent) => this.shownAgents!.get(agent.name) !== agent.description);
    if (added.length === 0) return { mainTools: this.shownTools };
    for (const agent of added) this.shownAgents.set(agent.name, agent.description);
    const lines = added.map((agent) => `- ${agent.name}: ${agent.description}`);
    const note = `[Agents available to the task tool since it was described (use them as subagent_type like the others):\n${lines.join('\n')}]`;
    return { mainTools: this.shownTools, note };
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
    const runId = this.actor.getSnapshot().context.run;
    const run = runId === undefined ? undefined : this.runtime.runOf(runId);
    if (!run) return false;
    run.cancel('Interrupted by the user.');
    return true;
  }

  /**
   * Forgets the conversation: the next message starts a new one with the same session key, so
   * the session's tasks, their announcements and its "always allow" answers stay. Returns false
   * (and forgets nothing) while a run is in progress or waiting.
   */
  clear(): boolean {
    if (this.isBusy) return false;
    this.actor.send({ type: 'conversation.cleared' });
    // A new conversation: its first message gets the main agent's memory as it is then.
    this.briefing = undefined;
    this.briefed = false;
    return true;
  }

  /**
   * Stops listening for announcements. Background tasks are not cancelled (see `cancelSession`);
   * messages still waiting for a run reject with `RUNTIME_STOPPED`.
   */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.runtime.closeSession(this.actorId);
    this.unsubscribe();
    this.events.removeAllListeners();
    const error = new TroupeError('RUNTIME_STOPPED', `Session ${this.actorId} is closed.`);
    for (const planned of this.planned.values()) planned.reject(error);
    this.planned.clear();
  }

  /**
   * @internal The session's actor spawned the run planned for a message (`runStarted`): its
   * `TaskRun` follows the actor, with the messages it really starts from.
   */
  runStarted(runId: string, actor: SubagentRef): void {
    const planned = this.planned.get(runId);
    if (!planned) return;
    const spec: TaskSpec = { ...planned.spec, messages: actor.getSnapshot().context.messages };
    const run = new TaskRun(this.host, spec, {
      registry: this.runtime.tooling.withToolSources(planned.registry, spec, this.definition),
    });
    this.runtime.startRun(run, actor);
  }

  private replied({ runId, text, output }: SessionEmitted): void {
    const planned = this.planned.get(runId);
    if (!planned) return;
    this.planned.delete(runId);
    const result = toResult(planned.spec, output);
    const refused = recordSessionRun(this.runtime.store, planned.spec, result, this.runtime.clock.now());
    if (refused)
      this.host.emitter.emit('runtime.warning', {
        code: 'PERSISTENCE_FAILED',
        message: refused,
        taskId: runId,
      });
    this.emit({ kind: 'reply', text, result });
    planned.resolve({ text, result });
  }

  private emit(message: SessionMessage): void {
    this.events.emit('message', message);
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
