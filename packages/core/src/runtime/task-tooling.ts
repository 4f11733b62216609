import type { AgentDefinition } from '../definitions/types.js';
import { TroupeError } from '../errors.js';
import { memoryScopeOf } from '../memory/agent-memory.js';
import { describeThrown } from '../persistence/plain-json.js';
import type { TaskResult, TaskSpec, TaskWorkspaceRecord } from '../persistence/types.js';
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
import { withTaskWorkspace } from './task-workspaces.js';

/** What {@link TaskTooling} is cut from: the runtime's tools, tool sources, skills, memory and workspaces. */
export interface TaskToolingOptions {
  readonly agents: AgentCatalog;
  readonly emitter: RuntimeEmitter;
  readonly limits: Pick<RuntimeLimits, 'maxDepth'>;
  /** The base tool set every agent's registry is cut from. */
  readonly baseTools: readonly Tool[];
  /** The main tools (task, task_status, …) an agent that may delegate gets. */
  readonly mainTools: readonly Tool[];
  readonly options: Pick<RuntimeOptions, 'toolSources' | 'memory' | 'skills' | 'workspaces'>;
  /** Agent teams: a member's spell gets its team's tools. */
  readonly teams: LazyTeams;
}

/**
 * @internal The one owner of what a task's agent is given beyond its prompt: its tool registry
 * ({@link TaskTooling.registryFor}: cut from the base and main tools its spec names, widened by the
 * tool sources, its agent memory's tools, its own workspace and, for a team member's spell, its
 * team's tools), the skills its system prompt preloads, and its own workspace when its agent asks
 * for one (`isolation`: planned at spawn, opened with its tools, closed as it ends, before its
 * result is recorded). `idle()` waits for the closes in flight (shutdown waits for them before the
 * store closes).
 */
export class TaskTooling {
  private readonly skills: ReadonlyMap<string, Skill>;
  /** The `skill` tool a session's main agent gets (Claude Code's `Skill`); undefined without skills. */
  readonly skillTool: Tool | undefined;
  /** Agents whose missing skills were reported (once each). */
  private readonly skillsReported = new Set<string>();
  /** Workspaces being closed, by task id. */
  private readonly closing = new Map<string, Promise<TaskResult>>();

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
    const { options, agents, baseTools, mainTools, limits, teams } = this.options;
    const cut = agents.registryForSpec(spec, baseTools, mainTools, limits.maxDepth);
    // With no tool sources and no agent memory, the registry cut from the spec is the one it runs with.
    const definition = options.toolSources?.length || options.memory ? agents.get(spec.agent) : undefined;
    const sourced = definition ? this.withToolSources(cut, spec, definition) : cut;
    const { workspace } = spec;
    const workspaces = options.workspaces;
    const own =
      workspace && workspaces
        ? withTaskWorkspace(
            sourced,
            workspace,
            () => workspaces.open(workspace, { taskId: spec.taskId, agent: spec.agent }),
            spec.taskId,
          )
        : sourced;
    return spec.team ? (teams.loaded?.registryFor(own, spec) ?? own) : own;
  }

  /** The task's workspace record, if its agent asks for one; throws when this host gives none. */
  planWorkspace(definition: AgentDefinition, taskId: string): TaskWorkspaceRecord | undefined {
    const isolation = definition.isolation;
    if (!isolation) return undefined;
    const workspaces = this.options.options.workspaces;
    if (!workspaces)
      throw new TroupeError(
        'WORKSPACE_UNAVAILABLE',
        `Agent "${definition.name}" asks for isolation: ${isolation}, which this host does not give (createRuntime({ workspaces }); in Node, @troupe/node's createWorktreeWorkspaces). Remove isolation from the agent to run it in the shared workspace.`,
      );
    return workspaces.plan({ taskId, agent: definition.name, isolation });
  }

  /**
   * Closes the workspace of a task that ended: resolves with its result naming what became of it
   * (or with the result as it is, and a `WORKSPACE_FAILED` warning, when closing failed).
   */
  closeWorkspace(spec: TaskSpec, result: TaskResult): Promise<TaskResult> {
    const { workspace, taskId } = spec;
    const workspaces = this.options.options.workspaces;
    if (!workspace || !workspaces) return Promise.resolve(result);
    const closing = this.closing.get(taskId);
    if (closing) return closing;
    const closed = (async () => {
      try {
        const outcome = await workspaces.close(workspace, { taskId });
        return outcome ? { ...result, workspace: outcome } : result;
      } catch (error) {
        this.options.emitter.emit('runtime.warning', {
          code: 'WORKSPACE_FAILED',
          message: `Task ${taskId}: its workspace at ${workspace.path} could not be closed (${describeThrown(error)}); it is left as it is.`,
          taskId,
        });
        return result;
      } finally {
        this.closing.delete(taskId);
      }
    })();
    this.closing.set(taskId, closed);
    return closed;
  }

  /** Resolves once every workspace being closed is closed (and its task, waiting on it, settled). */
  async idle(): Promise<void> {
    while (this.closing.size) await Promise.allSettled(this.closing.values());
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
