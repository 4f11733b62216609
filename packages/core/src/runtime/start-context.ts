import type { RuntimeHooks } from '../hooks/hook-points.js';
import { loadHookRunner } from '../hooks/load-hook-runner.js';
import type { StartContext, StartWarn } from '../hooks/start-hooks.js';
import { type AgentMemory, memoryBriefing, memoryScopeOf } from '../memory/agent-memory.js';
import { describeThrown } from '../persistence/plain-json.js';
import type { TaskSpec } from '../persistence/types.js';
import type { AgentCatalog } from './agent-catalog.js';

export type { StartContext, StartWarn } from '../hooks/start-hooks.js';

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
  warn: StartWarn,
): ((spec: TaskSpec, signal: AbortSignal) => Promise<StartContext>) | undefined {
  if (!hooks?.subagentStart && !hooks?.userPromptSubmit && !memory) return undefined;
  return async (spec, signal) => {
    const texts: string[] = [];
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
    if (hooks?.subagentStart || hooks?.userPromptSubmit) {
      const { startHookContext } = await loadHookRunner();
      const hooked = await startHookContext(hooks, spec, signal, warn);
      texts.push(...hooked.texts);
      if (hooked.stop !== undefined) return { texts, stop: hooked.stop };
    }
    return { texts };
  };
}
