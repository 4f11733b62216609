import { createAgentRegistry } from '../definitions/agent-registry.js';
import { readAgentToolRule } from '../definitions/agent-tool-rule.js';
import { checkFinalAnswer } from '../definitions/check-final-answer.js';
import { compileJsonSchema, type JsonSchemaValidator } from '../definitions/compile-json-schema.js';
import { DEFAULT_MODEL_IDS, type ModelConfig, resolveModel } from '../definitions/resolve-model.js';
import type { AgentDefinition } from '../definitions/types.js';
import { DefinitionError, ValidationError } from '../errors.js';
import type { OutputCheck } from '../machines/subagent-events.js';
import type { TaskSpec } from '../persistence/types.js';
import type { Tool } from '../tools/define-tool.js';
import { MCP_TOOL_PREFIX, sanitiseMcpName } from '../tools/mcp-names.js';
import { createToolRegistry, type ToolRegistry, type ToolSelection } from '../tools/tool-registry.js';
import { taskToolsFor } from './agent-task-fields.js';

export type { ModelConfig };

/** Anything that can look agents up by name: an array of definitions or an agent registry. */
export type AgentCatalogSource =
  | readonly AgentDefinition[]
  | { get(name: string): AgentDefinition | undefined; list(): AgentDefinition[] };

/** Names of the task tools a main agent (or a nesting sub-agent) gets. */
export const TASK_TOOL_NAMES = [
  'task',
  'task_status',
  'task_list',
  'cancel_task',
  'message_task',
  'spawn',
  'send_message',
] as const;

/**
 * The runtime's view of agent definitions: lookup (case-insensitive), model resolution, tool
 * registries, and compiled input/output schemas.
 */
export class AgentCatalog {
  readonly models: ModelConfig;
  private readonly source: { get(name: string): AgentDefinition | undefined; list(): AgentDefinition[] };
  private readonly registries = new Map<string, ToolRegistry>();
  private readonly validators = new Map<object, JsonSchemaValidator>();
  private readonly toolWarnings = new Set<string>();
  private readonly toolNames = new WeakMap<AgentDefinition, { flat?: string[]; nesting?: string[] }>();

  constructor(source: AgentCatalogSource, models: Partial<ModelConfig>) {
    this.models = { default: DEFAULT_MODEL_IDS.sonnet, ...models };
    // Definitions passed in code are validated now: a bad one is a synchronous DefinitionError.
    this.source = Array.isArray(source)
      ? createAgentRegistry({ definitions: source as readonly AgentDefinition[] })
      : (source as AgentCatalog['source']);
  }

  get(name: string): AgentDefinition | undefined {
    return this.source.get(name);
  }

  list(): AgentDefinition[] {
    return this.source.list();
  }

  /** The definition, or a DEFINITION_NOT_FOUND error listing the available names. */
  require(name: string): AgentDefinition {
    const definition = this.get(name);
    if (definition) return definition;
    const names = this.list().map((agent) => agent.name);
    throw new DefinitionError(
      `Unknown agent "${name}". Available agents: ${names.length ? names.join(', ') : 'none (pass agents to createRuntime)'}.`,
      { code: 'DEFINITION_NOT_FOUND', field: 'agent' },
    );
  }

  resolveModel(
    definition: AgentDefinition,
    callSite: string | undefined,
    parent: string | undefined,
  ): string {
    return resolveModel({ callSite, definition, parent, models: this.models });
  }

  /** Names of the tools a definition selects from the base set (plus task tools when nesting). */
  toolNamesFor(
    definition: AgentDefinition,
    base: readonly Tool[],
    taskTools: readonly Tool[],
    canNest: boolean,
  ): string[] {
    // Definitions are immutable once registered, so the selection is computed once per agent.
    let cached = this.toolNames.get(definition);
    if (!cached) {
      cached = {};
      this.toolNames.set(definition, cached);
    }
    const key = canNest ? 'nesting' : 'flat';
    let names = cached[key];
    if (!names) {
      const pool = canNest ? [...base, ...taskTools] : base;
      const registry = createToolRegistry(pool, {
        allow: allowListOf(definition),
        deny: definition.disallowedTools,
      });
      names = [...registry.names];
      cached[key] = names;
      for (const pattern of registry.unmatched) {
        // Task tools are withheld on purpose when nesting is off; that is not a mistake in the file.
        if (!canNest && (TASK_TOOL_NAMES as readonly string[]).includes(pattern.toLowerCase())) continue;
        this.toolWarnings.add(
          `Agent "${definition.name}" lists tool "${pattern}", which matches no tool of this runtime; it is ignored.`,
        );
      }
    }
    return names;
  }

  /** The definition's allow-list (with its `mcpServers` as `mcp__<server>`) and deny-list. */
  selectionFor(definition: AgentDefinition): ToolSelection {
    return { allow: allowListOf(definition), deny: definition.disallowedTools };
  }

  /** Tool names in agents' allow-lists that matched no tool, found so far (one message each). */
  warnings(): string[] {
    return [...this.toolWarnings];
  }

  /** A registry with exactly the spec's tools (cached: most tasks of an agent share one). */
  registryForSpec(
    spec: TaskSpec,
    base: readonly Tool[],
    taskTools: readonly Tool[],
    maxDepth: number,
  ): ToolRegistry {
    const key = `${spec.tools.join('\u0000')}\u0001${spec.allowedAgents?.join('\u0000') ?? ''}`;
    let registry = this.registries.get(key);
    if (!registry) {
      const nesting = taskToolsFor(taskTools, spec.allowedAgents, (name) => this.get(name)?.name);
      const pool = spec.depth < maxDepth ? [...base, ...nesting] : base;
      registry = createToolRegistry(pool, { allow: spec.tools.length ? spec.tools : ['\u0000none'] });
      this.registries.set(key, registry);
    }
    return registry;
  }

  /** Checks task input against the agent's input schema; throws a ValidationError if it fails. */
  checkInput(definition: AgentDefinition, input: unknown): void {
    if (!definition.inputSchema) return;
    const check = this.validator(definition.inputSchema, definition, 'inputSchema')(input);
    if (!check.ok)
      throw new ValidationError(
        `Input for agent "${definition.name}" does not match its input schema: ${check.errors.join('; ')}.`,
        check.errors,
        { code: 'INPUT_SCHEMA_FAILED' },
      );
  }

  /** Checks a final answer against the spec's output schema. */
  checkOutput(spec: TaskSpec, text: string): OutputCheck | undefined {
    return spec.outputSchema ? checkFinalAnswer(text, spec.outputSchema) : undefined;
  }

  private validator(
    schema: object,
    definition: { name: string; path?: string },
    field: string,
  ): JsonSchemaValidator {
    let validator = this.validators.get(schema);
    if (!validator) {
      validator = compileJsonSchema(schema, { field, ...(definition.path ? { file: definition.path } : {}) });
      this.validators.set(schema, validator);
    }
    return validator;
  }
}

/** The agent's allow-list plus `mcp__<server>` for each server in its `mcpServers`. */
function allowListOf(definition: AgentDefinition): string[] | undefined {
  // `Agent(explore, plan)` grants the tools that start sub-agents (which agents: `allowedAgents`).
  const tools = definition.tools && readAgentToolRule(definition.tools).tools;
  if (!tools || !definition.mcpServers?.length) return tools;
  const servers = definition.mcpServers.map(
    (server) => `${MCP_TOOL_PREFIX}${sanitiseMcpName(typeof server === 'string' ? server : server.name)}`,
  );
  return [...tools, ...servers.filter((pattern) => !tools.includes(pattern))];
}
