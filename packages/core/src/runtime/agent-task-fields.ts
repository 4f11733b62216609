import { readAgentToolRule } from '../definitions/agent-tool-rule.js';
import type { AgentDefinition, PermissionMode } from '../definitions/types.js';
import type { TaskSpec } from '../persistence/types.js';
import type { Tool } from '../tools/define-tool.js';
import { effectiveMode, type PermissionModeOptions } from './permission-modes.js';

/** The fields of a task spec that come from the agent's Claude Code fields. */
export type AgentTaskFields = Pick<TaskSpec, 'permissionMode' | 'effort' | 'allowedAgents'>;

/**
 * The spec fields an agent's `permissionMode`, `effort` and `Agent(...)` tools give its task, and
 * a warning when the mode it runs in is not the one it asked for.
 */
export function agentTaskFields(
  definition: AgentDefinition,
  parentMode: PermissionMode | undefined,
  options: PermissionModeOptions,
): { fields: AgentTaskFields; warning?: string } {
  const fields: AgentTaskFields = {};
  const { mode, warning } = effectiveMode(definition.name, definition.permissionMode, parentMode, options);
  if (mode !== 'default') fields.permissionMode = mode;
  if (definition.effort) fields.effort = definition.effort;
  const allowed = definition.tools && readAgentToolRule(definition.tools).allowedAgents;
  if (allowed) fields.allowedAgents = allowed;
  return warning === undefined ? { fields } : { fields, warning };
}

/** In plan mode only read tools are offered (a write or execute call is also denied if made). */
export function toolsForMode(
  names: string[],
  mode: PermissionMode | undefined,
  pool: readonly Tool[],
): string[] {
  if (mode !== 'plan') return names;
  const access = new Map(pool.map((tool) => [tool.name, tool.access]));
  return names.filter((name) => access.get(name) === 'read');
}

/**
 * Why a task may not start `agent`, or undefined when it may: a task whose agent lists
 * `Agent(explore, plan)` starts only those agents. `resolve` maps a name or alias to the agent's
 * name.
 */
export function refusedAgent(
  spec: Pick<TaskSpec, 'agent' | 'allowedAgents'> | undefined,
  agent: string,
  resolve: (name: string) => string | undefined,
): string | undefined {
  const allowed = spec?.allowedAgents;
  if (!allowed) return undefined;
  const names = allowed.map((name) => resolve(name) ?? name);
  const wanted = resolve(agent) ?? agent.toLowerCase();
  if (names.includes(wanted)) return undefined;
  return `agent "${spec.agent}" may start only ${names.map((name) => `"${name}"`).join(', ')} (its tools list Agent(${allowed.join(', ')})); "${agent}" is not one of them.`;
}

/**
 * The `task` tool as a task with `Agent(explore, plan)` sees it: the same tool, its
 * `subagent_type` listing only `names`, so the model is offered only the agents it may start.
 */
export function restrictTaskTool(tool: Tool, names: readonly string[]): Tool {
  return {
    name: tool.name,
    access: tool.access,
    get description() {
      return tool.description;
    },
    get input() {
      return tool.input;
    },
    get inputJsonSchema() {
      const schema = tool.inputJsonSchema as { properties?: Record<string, object> };
      const property = schema.properties?.subagent_type;
      if (!property) return tool.inputJsonSchema;
      return {
        ...schema,
        properties: { ...schema.properties, subagent_type: { ...property, enum: [...names] } },
      } as Tool['inputJsonSchema'];
    },
    execute: (input, context) => tool.execute(input, context),
  };
}

/** The task tools with `task` restricted to the agents a spec may start (as they are, without a restriction). */
export function taskToolsFor(
  tools: readonly Tool[],
  allowed: readonly string[] | undefined,
  resolve: (name: string) => string | undefined,
): readonly Tool[] {
  if (!allowed) return tools;
  const names = allowed.map((name) => resolve(name) ?? name);
  return tools.map((tool) => (tool.name === 'task' ? restrictTaskTool(tool, names) : tool));
}
