import {
  askHook,
  hookName,
  hookStopMessage,
  readSubagentStart,
  readUserPromptSubmit,
} from '../hooks/hook-answers.js';
import type { HookOutcomeBase, RuntimeHooks } from '../hooks/hook-points.js';
import { type AgentMemory, memoryBriefing, memoryScopeOf } from '../memory/agent-memory.js';
import { describeThrown } from '../persistence/plain-json.js';
import type { TaskSpec } from '../persistence/types.js';
import type { AgentCatalog } from './agent-catalog.js';

type Warn = (code: 'HOOK_FAILED' | 'HOOK_MESSAGE' | 'MEMORY_FAILED', message: string, taskId: string) => void;

/** What a task is given when it starts: text with its prompt, or a hook's word that it must not start. */
export interface StartContext {
  texts: string[];
  /** A hook stopped the task before it started (`continue: false`, a blocked prompt): the message it ends with. */
  stop?: string;
}

/**
 * What a task is given with its prompt when it starts: its agent memory's briefing (when its agent
 * has `memory` and the host keeps memory) and what `SubagentStart` hooks add (sub-agent tasks), or
 * a main agent's `UserPromptSubmit` hooks (its runs). Undefined when the host has none of these,
 * so tasks start at once. Never rejects: a memory that cannot be read or a hook that fails is a
 * warning, and the task starts without it.
 */
export function startContextOf(
  agents: AgentCatalog,
  hooks: RuntimeHooks | undefined,
  memory: AgentMemory | undefined,
  warn: Warn,
): ((spec: TaskSpec, signal: AbortSignal) => Promise<StartContext>) | undefined {
  if (!hooks?.subagentStart && !hooks?.userPromptSubmit && !memory) return undefined;
  return async (spec, signal) => {
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
    const definition = agents.get(spec.agent);
    const scope = definition && memory ? memoryScopeOf(definition) : undefined;
    if (memory && scope && spec.depth >= 1) {
      const request = { taskId: spec.taskId, agent: spec.agent, scope };
      try {
        // A host's memory may throw at once or reject: both are its failure, caught here.
        const [index, tools] = await Promise.all([
          Promise.resolve().then(() => memory.readIndex(request)),
          Promise.resolve().then(() => memory.tools(request)),
        ]);
        texts.push(
          memoryBriefing(
            memory.folder(request),
            index,
            tools.map((tool) => tool.name),
          ),
        );
      } catch (error) {
        warn(
          'MEMORY_FAILED',
          `Task ${spec.taskId}: the ${scope} memory of agent "${spec.agent}" could not be read: ${describeThrown(error)}; the task starts without it.`,
          spec.taskId,
        );
      }
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
  };
}
