import type { SerializedError } from '../errors.js';
import { textOf, toolUsesOf } from '../model/content.js';
import type { ContentBlock, Message, ToolResultBlock, Usage } from '../model/types.js';
import type { TaskLimits, TerminateReason } from '../persistence/types.js';
import type { UsageByModel } from '../usage/usage-by-model.js';
import type { ToolCallPlan } from './subagent-events.js';

/** What a subagent actor starts from. */
export interface SubagentInput {
  taskId: string;
  agent: string;
  /** Requested model id (already resolved from aliases). */
  model: string;
  messages: Message[];
  limits: TaskLimits;
  /** Length of the grace turn given after MAX_TURNS or TIMEOUT, in ms. */
  graceMs: number;
  /** Whether a final answer is checked against an output schema. */
  hasOutputSchema: boolean;
}

/** Why the task is in its grace turn. */
export type GraceReason = 'MAX_TURNS' | 'TIMEOUT';

/** Tool calls of the last assistant message and how far they got. Replaced as a whole. */
export interface TurnStep {
  /** How each call of the last assistant message is handled. */
  plan: ToolCallPlan[];
  /** Results so far for `plan`, in order. */
  results: ToolResultBlock[];
  approved: string[];
  /** Write/execute calls that started and have not finished (never re-run after a crash). */
  inFlight: string[];
}

/** How the task ended. */
export interface TaskOutcome {
  terminateReason: TerminateReason;
  output: unknown;
  error?: SerializedError;
  endedAt: number;
}

/**
 * The subagent's context: plain JSON data, persisted as is. Kept to a few top-level fields, grouped
 * by how often they change, because XState copies the top level on every assign.
 */
export interface SubagentContext {
  /** Fixed for the task's life. */
  task: Omit<SubagentInput, 'messages'>;
  messages: Message[];
  turns: number;
  toolCalls: number;
  usage: Usage;
  /** The model id the provider reported last. */
  modelUsed: string | undefined;
  /** `usage` split by model, once a second model answered (absent while one model did). */
  usageByModel?: UsageByModel;
  startedAt: number;
  /** Absolute ms; extended by time spent awaiting approval. */
  deadline: number;
  /** Time of the last event. */
  now: number;
  approvalSince: number;
  step: TurnStep;
  graceReason: GraceReason | undefined;
  end: TaskOutcome | undefined;
  /**
   * Steering messages received and not yet given to the model (absent in snapshots written before
   * steering existed). They join the next user message: with the next tool results, or as a new
   * turn when the model answers while one waits.
   */
  steering?: readonly string[];
}

export const NO_STEP: TurnStep = { plan: [], results: [], approved: [], inFlight: [] };

/** What a finished subagent actor outputs. */
export interface SubagentOutput {
  status: 'completed' | 'failed' | 'cancelled';
  terminateReason: TerminateReason;
  output: unknown;
  turns: number;
  toolCalls: number;
  usage: Usage;
  model: string;
  /** `usage` split by model, when more than one model answered. */
  usageByModel?: UsageByModel;
  startedAt: number;
  endedAt: number;
  error?: SerializedError;
}

/**
 * What the grace note tells the model about tools. The grace turn still sends the tools (so the
 * prompt cache is read), so the model is told in words not to call them; calls it makes anyway
 * are not run.
 */
export const GRACE_INSTRUCTION = 'Do not call any more tools.';

const GRACE_ANSWER =
  'Reply now with your best final answer, based on what you have found so far, and say what is left unfinished.';

const GRACE_NOTE: Record<GraceReason, string> = {
  MAX_TURNS: `You have reached your turn limit. ${GRACE_INSTRUCTION} ${GRACE_ANSWER}`,
  TIMEOUT: `You have run out of time. ${GRACE_INSTRUCTION} ${GRACE_ANSWER}`,
};

export function lastAssistantText(messages: readonly Message[]): string {
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index]!;
    if (message.role === 'assistant') {
      const text = textOf(message.content);
      if (text) return text;
    }
  }
  return '';
}

/** The next call of the plan that has no result yet. */
export function nextCall(context: SubagentContext): ToolCallPlan | undefined {
  return context.step.plan[context.step.results.length];
}

export function tokens(usage: Usage): number {
  return usage.input + usage.output;
}

/**
 * Closes the conversation for a grace turn: every tool call left unanswered gets an error result,
 * and the grace note is added to the last user message (roles must alternate).
 */
export function messagesForGrace(context: SubagentContext, reason: GraceReason): Message[] {
  const messages = context.messages.slice();
  const last = messages[messages.length - 1];
  const note: ContentBlock = { type: 'text', text: GRACE_NOTE[reason] };
  if (last?.role === 'assistant') {
    const answered = new Set(context.step.results.map((result) => result.tool_use_id));
    const results: ContentBlock[] = [...context.step.results];
    for (const use of toolUsesOf(typeof last.content === 'string' ? [] : last.content)) {
      if (!answered.has(use.id))
        results.push({
          type: 'tool_result',
          tool_use_id: use.id,
          content: 'Not run: the task stopped before this tool call.',
          is_error: true,
        });
    }
    messages.push({ role: 'user', content: [...results, note] });
  } else if (last) {
    const content: ContentBlock[] =
      typeof last.content === 'string' ? [{ type: 'text', text: last.content }] : [...last.content];
    messages[messages.length - 1] = { role: 'user', content: [...content, note] };
  } else {
    messages.push({ role: 'user', content: [note] });
  }
  return messages;
}

/** The final status a terminate reason implies. */
export function statusOf(reason: TerminateReason | undefined): SubagentOutput['status'] {
  return reason === 'GOAL' ? 'completed' : reason === 'ABORTED' ? 'cancelled' : 'failed';
}

/** Content blocks for the steering messages waiting in `context`, or none. */
export function steeringBlocks(context: SubagentContext): ContentBlock[] {
  const steering = context.steering;
  if (!steering?.length) return [];
  return steering.map((text) => ({
    type: 'text' as const,
    text: `Message from the user while you work: ${text}`,
  }));
}
