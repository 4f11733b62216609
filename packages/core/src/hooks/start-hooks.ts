import type { TaskSpec } from '../persistence/types.js';
import {
  askHook,
  hookName,
  hookStopMessage,
  readSubagentStart,
  readUserPromptSubmit,
} from './hook-answers.js';
import type { HookOutcomeBase, RuntimeHooks } from './hook-points.js';

export type StartWarn = (
  code: 'HOOK_FAILED' | 'HOOK_MESSAGE' | 'MEMORY_FAILED',
  message: string,
  taskId: string,
) => void;

/** What a task is given when it starts: text with its prompt, or a hook's word that it must not start. */
export interface StartContext {
  texts: string[];
  /** A hook stopped the task before it started (`continue: false`, a blocked prompt): the message it ends with. */
  stop?: string;
}

/**
 * What the host's start hooks give a run: a main agent's run asks `UserPromptSubmit` (context with
 * the prompt, or a block that stops the run before the model reads it), a sub-agent task asks
 * `SubagentStart` (context). Either may stop the run with `continue: false`.
 */
export async function startHookContext(
  hooks: RuntimeHooks,
  spec: TaskSpec,
  signal: AbortSignal,
  warn: StartWarn,
): Promise<StartContext> {
  const texts: string[] = [];
  const call = {
    sessionId: spec.sessionKey,
    agentId: spec.taskId,
    agentType: spec.agent,
    depth: spec.depth,
  };
  const tell = (point: string, answer: HookOutcomeBase | undefined) => {
    if (answer?.systemMessage)
      warn(
        'HOOK_MESSAGE',
        `Task ${spec.taskId}: ${point} hook${answer.source ? ` (${answer.source})` : ''}: ${answer.systemMessage}`,
        spec.taskId,
      );
  };
  if (hooks?.userPromptSubmit && spec.depth < 1) {
    const answer = await askHook(
      'UserPromptSubmit',
      () => hooks.userPromptSubmit?.({ ...call, prompt: spec.prompt }, signal),
      readUserPromptSubmit,
      (message) => warn('HOOK_FAILED', `Task ${spec.taskId}: ${message}`, spec.taskId),
    );
    tell('UserPromptSubmit', answer);
    if (answer?.stop)
      return { texts, stop: hookStopMessage('UserPromptSubmit', { ...answer, stop: answer.stop }) };
    if (answer?.block)
      return {
        texts,
        stop: `The prompt was blocked by ${hookName('UserPromptSubmit', answer)}: ${answer.block}`,
      };
    if (answer?.additionalContext) texts.push(`UserPromptSubmit hook context: ${answer.additionalContext}`);
  }
  if (hooks?.subagentStart && spec.depth >= 1) {
    const answer = await askHook(
      'SubagentStart',
      () => hooks.subagentStart?.(call, signal),
      readSubagentStart,
      (message) => warn('HOOK_FAILED', `Task ${spec.taskId}: ${message}`, spec.taskId),
    );
    tell('SubagentStart', answer);
    if (answer?.stop)
      return { texts, stop: hookStopMessage('SubagentStart', { ...answer, stop: answer.stop }) };
    if (answer?.additionalContext) texts.push(`SubagentStart hook context: ${answer.additionalContext}`);
  }
  return { texts };
}
