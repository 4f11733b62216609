import { estimateCost, type TokenCounts } from './model-cost.js';
import type { ActorState, Frame, TimelineModel } from './player.js';

/** One block of a message, as the trace view shows it. */
export type TraceBlock =
  | { kind: 'text'; text: string }
  | { kind: 'thinking'; text: string }
  | { kind: 'tool_use'; id: string; name: string; input: unknown }
  | { kind: 'tool_result'; id: string; output: string; isError: boolean }
  | { kind: 'other'; value: unknown };

/** One message of the conversation the model saw. */
export interface TraceMessage {
  role: string;
  blocks: TraceBlock[];
}

/** What a task actor did at one step, read from its context and the step's event. */
export interface StepTrace {
  /** The conversation so far (what the model saw, plus its latest answer). */
  messages: TraceMessage[];
  /** The system prompt, when the timeline has it. */
  system?: string;
  model?: string;
  /** Tokens of the model call this step answered (`model.responded` steps). */
  stepTokens?: TokenCounts;
  stepCost?: number;
  /** The task's tokens so far. */
  totalTokens?: TokenCounts;
  totalCost?: number;
  /** Ms since the task started, in run time. */
  elapsedMs?: number;
  /** Ms between the actor's previous step and this one. */
  stepMs?: number;
  /** For a `tool.finished` step: ms since that tool call started (or since the model asked for it). */
  toolMs?: number;
  turns?: number;
  toolCalls?: number;
}

const textOf = (content: unknown): string => {
  if (typeof content === 'string') return content;
  if (Array.isArray(content))
    return content
      .map((block) =>
        block && typeof block === 'object' && 'text' in block
          ? String((block as { text: unknown }).text)
          : '',
      )
      .join('\n');
  return JSON.stringify(content);
};

function blocksOf(content: unknown): TraceBlock[] {
  if (typeof content === 'string') return [{ kind: 'text', text: content }];
  if (!Array.isArray(content)) return [{ kind: 'other', value: content }];
  return content.map((raw): TraceBlock => {
    const block = (raw ?? {}) as Record<string, unknown>;
    switch (block.type) {
      case 'text':
        return { kind: 'text', text: String(block.text ?? '') };
      case 'thinking':
        return { kind: 'thinking', text: String(block.thinking ?? '') };
      case 'redacted_thinking':
        return { kind: 'thinking', text: '[redacted thinking]' };
      case 'tool_use':
        return {
          kind: 'tool_use',
          id: String(block.id ?? ''),
          name: String(block.name ?? ''),
          input: block.input,
        };
      case 'tool_result':
        return {
          kind: 'tool_result',
          id: String(block.tool_use_id ?? ''),
          output: textOf(block.content),
          isError: block.is_error === true,
        };
      default:
        return { kind: 'other', value: raw };
    }
  });
}

const systems = new WeakMap<TimelineModel, Map<string, string>>();

/**
 * A task's or main-agent run's system prompt, from the event that started it (the supervisor's
 * `task.submitted`, a session's `message.received`), when the timeline recorded it.
 */
function systemPromptOf(model: TimelineModel, actor: ActorState): string | undefined {
  let byTask = systems.get(model);
  if (!byTask) {
    byTask = new Map();
    for (const { event } of model.events) {
      if (typeof event.system !== 'string') continue;
      const started = (
        event.type === 'task.submitted'
          ? event.task
          : event.type === 'message.received'
            ? event.run
            : undefined
      ) as { taskId?: unknown } | undefined;
      if (typeof started?.taskId === 'string') byTask.set(started.taskId, event.system);
    }
    systems.set(model, byTask);
  }
  const taskId = (actor.context.task as { taskId?: unknown } | undefined)?.taskId;
  return typeof taskId === 'string' ? byTask.get(taskId) : undefined;
}

const counts = (value: unknown): TokenCounts | undefined => {
  const usage = value as Partial<TokenCounts> | undefined;
  if (typeof usage?.input !== 'number' || typeof usage.output !== 'number') return undefined;
  return {
    input: usage.input,
    output: usage.output,
    ...(typeof usage.cacheRead === 'number' ? { cacheRead: usage.cacheRead } : {}),
    ...(typeof usage.cacheWrite === 'number' ? { cacheWrite: usage.cacheWrite } : {}),
    ...(typeof usage.cacheWrite1h === 'number' ? { cacheWrite1h: usage.cacheWrite1h } : {}),
  };
};

/**
 * The trace of a task or main-agent run at a frame: its conversation (from its context's
 * `messages`), the tokens and estimated cost of the model call the step answered and of the task
 * so far, and durations in run time. Undefined for an actor that is not a task (no `messages`).
 */
export function stepTrace(model: TimelineModel, frame: Frame, actor: ActorState): StepTrace | undefined {
  const messages = actor.context.messages;
  if (!Array.isArray(messages)) return undefined;
  const task = (actor.context.task ?? {}) as { model?: unknown; system?: unknown };
  const used = typeof actor.context.modelUsed === 'string' ? actor.context.modelUsed : undefined;
  const modelId = used ?? (typeof task.model === 'string' ? task.model : undefined);
  const trace: StepTrace = {
    messages: messages.map((message) => {
      const { role, content } = (message ?? {}) as { role?: unknown; content?: unknown };
      return { role: String(role ?? '?'), blocks: blocksOf(content) };
    }),
    ...(modelId ? { model: modelId } : {}),
  };
  const system = typeof task.system === 'string' ? task.system : systemPromptOf(model, actor);
  if (system !== undefined) trace.system = system;
  const own = frame.sessionId === actor.sessionId;
  const event = own ? frame.event : undefined;
  if (event?.type === 'model.responded') {
    const response = event.response as { usage?: unknown; model?: unknown } | undefined;
    const tokens = counts(response?.usage);
    if (tokens) {
      trace.stepTokens = tokens;
      const cost = estimateCost(typeof response?.model === 'string' ? response.model : modelId, tokens);
      if (cost !== undefined) trace.stepCost = cost;
    }
  }
  const total = counts(actor.context.usage);
  if (total) {
    trace.totalTokens = total;
    const cost = estimateCost(modelId, total);
    if (cost !== undefined) trace.totalCost = cost;
  }
  const { startedAt, now, turns, toolCalls } = actor.context;
  if (typeof startedAt === 'number' && startedAt > 0 && typeof now === 'number')
    trace.elapsedMs = Math.max(0, now - startedAt);
  if (typeof turns === 'number') trace.turns = turns;
  if (typeof toolCalls === 'number') trace.toolCalls = toolCalls;
  if (own) {
    const previous = model.frames
      .slice(0, frame.index)
      .findLast((earlier) => earlier.sessionId === actor.sessionId);
    if (previous) trace.stepMs = Math.max(0, frame.at - previous.at);
  }
  if (event?.type === 'tool.finished') {
    // From the tool's `tool.started` event, else from the model's answer that asked for it.
    const earlier = model.events.filter(
      (logged) => logged.sessionId === actor.sessionId && logged.frame >= 0 && logged.frame < frame.index,
    );
    const started =
      earlier.find(
        (logged) => logged.event.type === 'tool.started' && logged.event.toolUseId === event.toolUseId,
      ) ?? earlier.findLast((logged) => logged.event.type === 'model.responded');
    const finishedAt = typeof event.at === 'number' ? event.at : frame.at;
    const startedAt = typeof started?.event.at === 'number' ? started.event.at : started?.at;
    if (startedAt !== undefined) trace.toolMs = Math.max(0, finishedAt - startedAt);
  }
  return trace;
}
