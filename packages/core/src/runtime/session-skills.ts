import type { TaskSpec } from '../persistence/types.js';
import type { Tool } from '../tools/define-tool.js';
import { createToolRegistry, type ToolRegistry, type ToolSelection } from '../tools/tool-registry.js';

/**
 * A main-agent run's plan with the `skill` tool added (Claude Code gives the main session its
 * skills' descriptions and the `Skill` tool; a sub-agent gets only the skills it lists, preloaded),
 * when the runtime has skills, the agent's `tools` / `disallowedTools` keep `skill` (names match
 * case-insensitively: `Skill` keeps it) and no tool of the run has that name already.
 */
export function withSkillTool(
  planned: { spec: TaskSpec; registry: ToolRegistry },
  skillTool: Tool | undefined,
  selection: ToolSelection,
): { spec: TaskSpec; registry: ToolRegistry } {
  const { spec, registry } = planned;
  if (!skillTool || registry.has(skillTool.name)) return planned;
  if (!createToolRegistry([skillTool], selection).has(skillTool.name)) return planned;
  const tools = registry.names.map((name) => registry.get(name)!);
  return {
    spec: { ...spec, tools: [...spec.tools, skillTool.name] },
    registry: createToolRegistry([...tools, skillTool]),
  };
}
