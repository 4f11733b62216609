import type { AgentDefinition } from '../definitions/types.js';
import { memoryScopeOf } from '../memory/agent-memory.js';
import type { TaskSpec } from '../persistence/types.js';
import { preloadSkills, type Skill } from '../skills/skill.js';
import { createSkillTool } from '../skills/skill-tool.js';
import type { Tool } from '../tools/define-tool.js';
import type { ToolRegistry } from '../tools/tool-registry.js';
import type { ToolSource } from '../tools/tool-source.js';
import type { AgentCatalog } from './agent-catalog.js';
import type { RuntimeEmitter } from './emitter.js';
import type { LazyTeams } from './lazy-teams.js';
import type { RuntimeLimits } from './runtime-limits.js';
import type { RuntimeOptions } from './runtime-options.js';
import { withToolSources } from './source-registry.js';
import type { WorkspaceKeeper } from './task-workspaces.js';

/** What {@link TaskTooling} is cut from: the runtime's tools, tool sources, skills, memory and workspaces. */
export interface TaskToolingOptions {
  readonly agents: AgentCatalog;
  readonly emitter: RuntimeEmitter;
  readonly limits: Pick<RuntimeLimits, 'maxDepth'>;
  /** The base tool set every agent's registry is cut from. */
  readonly baseTools: readonly Tool[];
  /** The main tools (task, task_status, …) an agent that may delegate gets. */
  readonly mainTools: readonly Tool[];
  readonly options: Pick<RuntimeOptions, 'toolSources' | 'memory' | 'skills'>;
  readonly workspaceKeeper: WorkspaceKeeper;
  /** Agent teams: a member's spell gets its team's tools. */
  readonly teams: LazyTeams;
}

/**
 * @internal The one owner of what a task's agent is given beyond its prompt: its tool registry
 * ({@link TaskTooling.registryFor}: cut from the base and main tools its spec names, widened by the
 * tool sources, its agent memory's tools, its own workspace and, for a team member's spell, its
 * team's tools), and the skills its system prompt preloads.
 */
export class TaskTooling {
  private readonly skills: ReadonlyMap<string, Skill>;
  /** The `skill` tool a session's main agent gets (Claude Code's `Skill`); undefined without skills. */
  readonly skillTool: Tool | undefined;
  /** Agents whose missing skills were reported (once each). */
  private readonly skillsReported = new Set<string>();

  constructor(private readonly options: TaskToolingOptions) {
    this.skills = new Map((options.options.skills ?? []).map((skill) => [skill.name, skill]));
    this.skillTool = createSkillTool(this.skills);
  }

  /**
   * The registry a task runs with, asked by its run as it starts: the tools its spec names (cut
   * once per tool list and shared), plus what the tool sources and its agent memory give it, its
   * own workspace's tools in place of the shared ones, and its team's tools when it is a member's
   * spell. Nothing connects here: sources are asked and workspaces opened at the registry's first
   * `ready()` (before the task's first effect), so a task cancelled before that opens nothing.
   */
  registryFor(spec: TaskSpec): ToolRegistry {
    const { options, agents, baseTools, mainTools, limits, workspaceKeeper, teams } = this.options;
    const cut = agents.registryForSpec(spec, baseTools, mainTools, limits.maxDepth);
    // With no tool sources and no agent memory, the registry cut from the spec is the one it runs with.
    const definition = options.toolSources?.length || options.memory ? agents.get(spec.agent) : undefined;
    const own = workspaceKeeper.registryFor(
      definition ? this.withToolSources(cut, spec, definition) : cut,
      spec,
    );
    return teams.loaded?.registryFor(own, spec) ?? own;
  }

  /**
   * A task's registry plus what the tool sources give its agent when it starts, and the tools over
   * its agent memory (whatever its allow-list) when it has one.
   */
  withToolSources(registry: ToolRegistry, spec: TaskSpec, definition: AgentDefinition): ToolRegistry {
    const { options, agents, emitter } = this.options;
    const { toolSources, memory } = options;
    const sources = toolSources ?? [];
    // A main agent's run (depth 0) gets its memory tools too, when its definition has `memory`.
    const scope = memory ? memoryScopeOf(definition) : undefined;
    const unrestricted: ToolSource[] =
      memory && scope
        ? [
            {
              name: `${scope} memory of ${spec.agent}`,
              tools: async (request) => ({ tools: await memory.tools({ ...request, scope }) }),
            },
          ]
        : [];
    if (!sources.length && !unrestricted.length) return registry;
    const request = { taskId: spec.taskId, agent: spec.agent, selection: agents.selectionFor(definition) };
    return withToolSources(
      registry,
      sources,
      request,
      (message) =>
        emitter.emit('runtime.warning', { code: 'TOOL_SOURCE_FAILED', message, taskId: spec.taskId }),
      unrestricted,
    );
  }

  /**
   * The system prompt section preloading the skills `definition` lists; a listed skill the runtime
   * was not given is a `SKILL_NOT_FOUND` warning naming the agent's file (once per agent).
   */
  skillsFor(definition: AgentDefinition): string {
    const { text, missing } = preloadSkills(definition, this.skills);
    if (missing.length && !this.skillsReported.has(definition.name)) {
      this.skillsReported.add(definition.name);
      const where = definition.path ? ` (${definition.path})` : '';
      this.options.emitter.emit('runtime.warning', {
        code: 'SKILL_NOT_FOUND',
        message: `Agent "${definition.name}"${where} lists skill${missing.length === 1 ? '' : 's'} ${missing.map((name) => `"${name}"`).join(', ')} that the runtime was not given (createRuntime({ skills })); it runs without ${missing.length === 1 ? 'it' : 'them'}.`,
      });
    }
    return text;
  }
}
