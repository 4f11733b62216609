import type { AgentDefinition } from '../definitions/types.js';
import { type AgentMemory, memoryBriefing, memoryScopeOf } from '../memory/agent-memory.js';
import { describeThrown } from '../persistence/plain-json.js';

/**
 * What a session's main agent is told of its agent memory when a conversation starts (Claude Code
 * loads `MEMORY.md` when a session starts): where the folder is, the tools over it, and its
 * `MEMORY.md`. Undefined when the agent has no `memory` or the host keeps none. Never rejects: a
 * memory that cannot be read is `warn`ed about and the conversation starts without it.
 */
export async function mainAgentBriefing(
  memory: AgentMemory | undefined,
  definition: AgentDefinition,
  runId: string,
  warn: (message: string) => void,
): Promise<string | undefined> {
  const scope = memoryScopeOf(definition);
  if (!memory || !scope) return undefined;
  const request = { taskId: runId, agent: definition.name, scope };
  try {
    // A host's memory may throw at once or reject: both are its failure, caught here.
    const [index, tools] = await Promise.all([
      Promise.resolve().then(() => memory.readIndex(request)),
      Promise.resolve().then(() => memory.tools(request)),
    ]);
    return memoryBriefing(
      memory.folder(request),
      index,
      tools.map((tool) => tool.name),
    );
  } catch (error) {
    warn(
      `The ${scope} memory of the main agent "${definition.name}" could not be read: ${describeThrown(error)}; the conversation starts without it.`,
    );
    return undefined;
  }
}
