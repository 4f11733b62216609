import * as v from 'valibot';
import { taskToolDescription } from '../definitions/task-tool-description.js';
import { TroupeError } from '../errors.js';
import type { Message } from '../model/types.js';
import { TASK_STATUSES } from '../persistence/statuses.js';
import type { TaskQuery, TaskResult, TaskStatus, TaskStore } from '../persistence/types.js';
import { defineTool, type Tool, type ToolContext } from '../tools/define-tool.js';
import type { AgentCatalog } from './agent-catalog.js';
import { refusedAgent } from './agent-task-fields.js';
import type { ForkSource } from './cache-fork.js';
import type { FollowUpOptions } from './follow-up.js';
import { foregroundResult } from './foreground-task.js';
import { createSendMessageTool } from './send-message-tool.js';
import type { SpawnOptions } from './spawn-options.js';
import type { TaskHandle } from './task-handle.js';
import type { TaskInfo } from './task-info.js';
import type { TaskRun } from './task-run.js';
import { createTeamTools } from './team-tool.js';
import type { TeamToolRuntime } from './team-tool-run.js';

/** What the main agent's tools need from the runtime they drive. */
export interface MainToolsRuntime extends TeamToolRuntime {
  readonly agents: AgentCatalog;
  readonly store: TaskStore;
  spawnInternal(options: SpawnOptions & { history?: Message[]; fork?: ForkSource }): TaskHandle;
  get(id: string): TaskInfo | undefined;
  find(id: string): Promise<TaskInfo | undefined>;
  history(query?: TaskQuery): Promise<{ tasks: TaskInfo[]; cursor?: string }>;
  cancel(id: string, reason?: string): boolean;
  steer(id: string, text: string): void;
  runOf(taskId: string): TaskRun | undefined;
  followUp(target: string, message: string, options?: FollowUpOptions): Promise<TaskHandle>;
}

/** Formats a token count: 950, 12.3k, 1.2M. */
export function formatTokens(tokens: number): string {
  if (tokens < 1000) return String(tokens);
  if (tokens < 1_000_000) return `${(tokens / 1000).toFixed(1).replace(/\.0$/, '')}k`;
  return `${(tokens / 1_000_000).toFixed(1).replace(/\.0$/, '')}M`;
}

/** Formats a duration: 850ms, 3.2s, 2m 5s. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)}s`;
  return `${Math.floor(ms / 60_000)}m ${Math.round((ms % 60_000) / 1000)}s`;
}

function outputText(result: TaskResult): string {
  if (typeof result.output === 'string') return result.output;
  return JSON.stringify(result.output, null, 2) ?? '';
}

/** The text a foreground `task` call returns: the answer, then a footer. */
export function taskToolAnswer(result: TaskResult): string {
  const lines: string[] = [];
  const output = outputText(result);
  if (result.status === 'completed') lines.push(output || '(The sub-agent finished without an answer.)');
  else {
    const why = result.error?.message ?? result.terminateReason;
    lines.push(`The sub-agent did not finish (${result.status}, ${result.terminateReason}): ${why}`);
    if (output) lines.push(`Its best answer so far:\n${output}`);
  }
  lines.push(
    `---\ntask_id: ${result.taskId} · agent: ${result.agent} · ${result.toolCalls} tool calls · ${formatDuration(result.durationMs)} · ${formatTokens(result.usage.total)} tokens · ${result.status}`,
  );
  return lines.join('\n\n');
}

function describeInfo(info: TaskInfo): string {
  const parts = [
    `task_id: ${info.id}`,
    `agent: ${info.agent}`,
    `status: ${info.status}`,
    `description: ${info.description}`,
    `tool calls: ${info.toolCalls}`,
    `elapsed: ${formatDuration(info.elapsedMs)}`,
    `tokens: ${formatTokens(info.tokens)}`,
  ];
  if (info.background) parts.push('background: yes');
  if (info.result) {
    parts.push(`terminate reason: ${info.result.terminateReason}`);
    const output = outputText(info.result);
    if (output) parts.push(`output:\n${output}`);
    if (info.result.error) parts.push(`error: ${info.result.error.message}`);
  }
  return parts.join('\n');
}

/** What a main-agent tool needs to know about who is calling. */
function caller(runtime: MainToolsRuntime, context: ToolContext) {
  const run = runtime.runOf(context.taskId);
  const messages = run?.context?.messages;
  // What the caller's requests sent, for a child that forks it (and reads its cached prefix).
  const fork: ForkSource | undefined =
    run && messages
      ? {
          model: run.spec.model,
          system: run.spec.system,
          tools: run.spec.requestTools ?? run.io.registry.specs,
          messages,
        }
      : undefined;
  return {
    parentTaskId: run && run.spec.depth >= 1 ? run.spec.taskId : undefined,
    sessionKey: run?.spec.sessionKey ?? context.sessionKey ?? 'default',
    messages,
    fork,
  };
}

/** A task the caller's session may see: the task tools never reach another session's tasks. */
function sessionTask(runtime: MainToolsRuntime, taskId: string, sessionKey: string): TaskInfo | undefined {
  const info = runtime.get(taskId);
  return info?.sessionKey === sessionKey ? info : undefined;
}

/** Whether a task, live or only in the store, belongs to `sessionKey`. */
async function ownedBy(runtime: MainToolsRuntime, taskId: string, sessionKey: string): Promise<boolean> {
  const info = await runtime.find(taskId);
  return info?.sessionKey === sessionKey;
}

/** Builds the main-agent tools bound to a runtime; with `teamTools`, `TeamCreate` and `TeamDelete` too. */
export function createMainTools(runtime: MainToolsRuntime, teamTools = false): Tool[] {
  const agentNames = () => runtime.agents.list().map((agent) => agent.name);
  const agentName = (name: string) => runtime.agents.get(name)?.name;

  const buildTask = (names: string[]) =>
    defineTool({
      name: 'task',
      description: taskDescription(runtime),
      access: 'read',
      input: v.object({
        description: v.pipe(
          v.string(),
          v.minLength(1),
          v.description('A short (3-7 word) label for the task.'),
        ),
        prompt: v.pipe(
          v.string(),
          v.minLength(1),
          v.description(
            'The full task for the sub-agent. It sees nothing else, so include every detail it needs.',
          ),
        ),
        subagent_type: v.pipe(
          names.length ? v.picklist(names as [string, ...string[]]) : v.string(),
          v.description('Which agent to use (see the list in the tool description).'),
        ),
        model: v.optional(
          v.pipe(
            v.string(),
            v.description('Optional model override: haiku, sonnet, opus, small, plan, or a full model id.'),
          ),
        ),
        run_in_background: v.optional(
          v.pipe(
            v.boolean(),
            v.description('Return the task id at once and let the task run; check it with task_status.'),
          ),
        ),
        resume: v.optional(
          v.pipe(
            v.string(),
            v.description('The task_id of an earlier task to continue, with its conversation.'),
          ),
        ),
      }),
      async execute(input, context) {
        const who = caller(runtime, context);
        const refusal = refusedAgent(runtime.runOf(context.taskId)?.spec, input.subagent_type, agentName);
        if (refusal) return `Error: ${refusal}`;
        let history: Message[] | undefined;
        if (input.resume) {
          // Only a task of the caller's own session can be resumed (its conversation is read).
          if (!(await ownedBy(runtime, input.resume, who.sessionKey)))
            return `Error: cannot resume task "${input.resume}": no task with that id in this session.`;
          const document = await runtime.store.loadSnapshot(input.resume).catch(() => undefined);
          const messages = (document?.snapshot as { context?: { messages?: unknown } } | undefined)?.context
            ?.messages;
          if (!Array.isArray(messages))
            return `Error: cannot resume task "${input.resume}": no conversation is stored for it.`;
          history = messages as Message[];
        }
        let handle: TaskHandle;
        try {
          handle = runtime.spawnInternal({
            agent: input.subagent_type,
            prompt: input.prompt,
            description: input.description,
            sessionKey: who.sessionKey,
            ...(input.model ? { model: input.model } : {}),
            ...(input.run_in_background ? { background: true, announce: true } : {}),
            ...(who.parentTaskId ? { parentTaskId: who.parentTaskId } : {}),
            ...(who.messages ? { context: who.messages } : {}),
            ...(who.fork ? { fork: who.fork } : {}),
            ...(history ? { history } : {}),
          });
        } catch (error) {
          if (error instanceof TroupeError) return `Error: ${error.message}`;
          throw error;
        }
        if (input.run_in_background) {
          return `Started task ${handle.id} in the background (agent: ${input.subagent_type}). You will be told when it finishes; you can also check it with task_status.`;
        }
        return taskToolAnswer(await foregroundResult(runtime, handle, context.signal));
      },
    });
  const task = followAgents(runtime, buildTask);

  const taskStatus = defineTool({
    name: 'task_status',
    description:
      'Shows the status of a task started with task or spawn: progress while it runs, its answer once it has finished.',
    access: 'read',
    input: v.object({ task_id: v.pipe(v.string(), v.minLength(1)) }),
    async execute({ task_id }, context) {
      // Tasks that ended before a restart are found in the store.
      const info = await runtime.find(task_id);
      return info && info.sessionKey === caller(runtime, context).sessionKey
        ? describeInfo(info)
        : `Error: no task with id "${task_id}" in this session.`;
    },
  });

  const taskList = defineTool({
    name: 'task_list',
    description: 'Lists tasks of this session, newest first, optionally by status or agent.',
    access: 'read',
    input: v.object({
      status: v.optional(v.picklist(TASK_STATUSES as [TaskStatus, ...TaskStatus[]])),
      agent_name: v.optional(v.string()),
      limit: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(100))),
    }),
    async execute({ status, agent_name, limit }, context) {
      const who = caller(runtime, context);
      // The store's history: tasks from before a restart are listed too.
      const { tasks } = await runtime.history({
        sessionKey: who.sessionKey,
        // The session's own main-agent runs are stored as tasks of depth 0 (for the ledger): not listed.
        minDepth: 1,
        limit: limit ?? 20,
        ...(status ? { status } : {}),
        ...(agent_name ? { agent: agent_name } : {}),
      });
      if (tasks.length === 0) return 'No tasks.';
      return tasks
        .map(
          (info) =>
            `${info.id}  ${info.status.padEnd(16)} ${info.agent.padEnd(22)} ${info.description} (${info.toolCalls} tools, ${formatDuration(info.elapsedMs)})`,
        )
        .join('\n');
    },
  });

  const cancelTask = defineTool({
    name: 'cancel_task',
    description: 'Cancels a queued or running task.',
    access: 'read',
    input: v.object({ task_id: v.pipe(v.string(), v.minLength(1)) }),
    execute({ task_id }, context) {
      const info = sessionTask(runtime, task_id, caller(runtime, context).sessionKey);
      if (!info) return `Error: no task with id "${task_id}" in this session.`;
      return runtime.cancel(task_id, 'Cancelled by the main agent.')
        ? `Task ${task_id} is being cancelled.`
        : `Task ${task_id} had already ended (${info.status}).`;
    },
  });

  const messageTask = defineTool({
    name: 'message_task',
    description:
      'Sends a message to a queued or running task (for example a background task): it sees the message at its next step, as if the user said it. Use it to correct course or add what the task needs to know.',
    access: 'read',
    input: v.object({
      task_id: v.pipe(v.string(), v.minLength(1)),
      message: v.pipe(
        v.string(),
        v.minLength(1),
        v.description('What the task should know or do differently.'),
      ),
    }),
    execute({ task_id, message }, context) {
      const info = sessionTask(runtime, task_id, caller(runtime, context).sessionKey);
      if (!info) return `Error: no task with id "${task_id}" in this session.`;
      if (info.result)
        return `Error: task ${task_id} has already ended (${info.status}); start a new task instead.`;
      runtime.steer(task_id, message);
      return `Message sent to task ${task_id}; it will see it at its next step.`;
    },
  });

  const spawn = defineTool({
    name: 'spawn',
    description:
      'Starts a background task and returns at once. When it finishes, its result is delivered back into this conversation so you can tell the user. Use it for work the user need not wait for.',
    access: 'read',
    input: v.object({
      task: v.pipe(
        v.string(),
        v.minLength(1),
        v.description('The full task; the sub-agent sees nothing else.'),
      ),
      label: v.optional(v.pipe(v.string(), v.description('A short label for progress lines.'))),
      agent: v.optional(v.pipe(v.string(), v.description('Which agent to use; default general-purpose.'))),
    }),
    execute({ task: prompt, label, agent }, context) {
      const who = caller(runtime, context);
      const name = agent ?? (runtime.agents.get('general-purpose') ? 'general-purpose' : agentNames()[0]);
      if (!name) return 'Error: no agents are available.';
      const refusal = refusedAgent(runtime.runOf(context.taskId)?.spec, name, agentName);
      if (refusal) return `Error: ${refusal}`;
      try {
        const handle = runtime.spawnInternal({
          agent: name,
          prompt,
          ...(label ? { description: label } : {}),
          sessionKey: who.sessionKey,
          background: true,
          announce: true,
          ...(who.parentTaskId ? { parentTaskId: who.parentTaskId } : {}),
        });
        return `Started background task ${handle.id}. Its result will be delivered to this conversation when it finishes.`;
      } catch (error) {
        if (error instanceof TroupeError) return `Error: ${error.message}`;
        throw error;
      }
    },
  });

  return [
    task,
    taskStatus,
    taskList,
    cancelTask,
    messageTask,
    spawn,
    createSendMessageTool(runtime, taskToolAnswer),
    ...(teamTools ? createTeamTools(runtime) : []),
  ];
}

/**
 * A tool rebuilt whenever the runtime's agents change (names or descriptions), so agents added to
 * the registry after `createRuntime` are offered to the main agent at its next request.
 */
function followAgents(runtime: MainToolsRuntime, build: (names: string[]) => Tool): Tool {
  let key: string | undefined;
  let tool: Tool | undefined;
  const current = (): Tool => {
    const agents = runtime.agents.list();
    const next = agents.map((agent) => `${agent.name}\u0000${agent.description}`).join('\u0001');
    if (tool === undefined || next !== key) {
      tool = build(agents.map((agent) => agent.name));
      key = next;
    }
    return tool;
  };
  return {
    name: 'task',
    access: 'read',
    get description() {
      return current().description;
    },
    get input() {
      return current().input;
    },
    get inputJsonSchema() {
      return current().inputJsonSchema;
    },
    execute: (input, context) => current().execute(input, context),
  };
}

/**
 * A tool whose spec (description, JSON Schema) is fixed as it is now, while its input check and
 * execution stay the live tool's: a session shows its main agent the `task` tool as it was at the
 * session's first run, so an agent registered later does not rewrite the cached prefix, yet can be
 * started (the live input check knows it).
 */
export function freezeTool(tool: Tool): Tool {
  const { name, access, description, inputJsonSchema } = tool;
  return {
    name,
    access,
    description,
    inputJsonSchema,
    get input() {
      return tool.input;
    },
    execute: (input, context) => tool.execute(input, context),
  };
}

/** The `task` tool's description: what it does, then every available agent and when to use it. */
export function taskDescription(runtime: MainToolsRuntime): string {
  return [
    'Delegates a task to a specialised sub-agent that works on its own, with its own tools and context, and returns its final answer.',
    'Use it for multi-step searches, investigations or changes that would fill your own context. Give the sub-agent a complete, self-contained prompt. Several tasks can run in parallel: call the tool several times in one reply.',
    taskToolDescription(runtime.agents).text,
  ].join('\n\n');
}
