import type { AgentDefinition } from '../definitions/types.js';
import { serializeError, TroupeError } from '../errors.js';
import { describeThrown } from '../persistence/plain-json.js';
import type {
  TaskResult,
  TaskSpec,
  TaskWorkspaceOutcome,
  TaskWorkspaceRecord,
} from '../persistence/types.js';
import type { Tool } from '../tools/define-tool.js';
import { createToolRegistry, type ToolRegistry } from '../tools/tool-registry.js';
import { lazyRegistry } from './lazy-registry.js';

/**
 * The host's hook for tasks whose agent asks for a workspace of its own (`isolation`), given as
 * `createRuntime({ workspaces })`. `@troupe/node`'s `createWorktreeWorkspaces` gives each such task
 * a git worktree on its own branch. A runtime without it refuses to spawn such an agent.
 */
export interface TaskWorkspaces {
  /**
   * Names the task's workspace, synchronously, at spawn (the record goes into the task's spec).
   * Throws when it cannot be had (e.g. the folder is not a git repository): the spawn throws.
   */
  plan(request: { taskId: string; agent: string; isolation: string }): TaskWorkspaceRecord;
  /**
   * Makes the workspace exist (or finds it again, after a restore) before the task's first effect,
   * and gives the tools that work in it: they replace the task's tools of the same names. A
   * rejection fails the task at its next model call, with no tool of those names left to it.
   */
  open(workspace: TaskWorkspaceRecord, request: { taskId: string; agent: string }): Promise<readonly Tool[]>;
  /**
   * The task ended (or was cancelled before it started): removes a workspace nothing was changed
   * in, keeps one that was. Undefined when there was no workspace (it was never opened).
   */
  close(
    workspace: TaskWorkspaceRecord,
    request: { taskId: string },
  ): Promise<TaskWorkspaceOutcome | undefined>;
}

/**
 * A task's registry that, once `ready()` is awaited, has `open`'s tools in place of its tools of
 * the same names (after `base`'s own `ready()`, e.g. its tool sources). If `open` rejects, the registry has no tools at all and `failure()` names why
 * (the task then fails at its next model call: nothing may run in the shared workspace instead).
 */
export function withTaskWorkspace(
  base: ToolRegistry,
  workspace: TaskWorkspaceRecord,
  open: () => Promise<readonly Tool[]>,
  taskId: string,
): ToolRegistry {
  return lazyRegistry(base, async () => {
    // The base's own sources first (an MCP server's tools): the workspace's tools replace within all of them.
    await base.ready?.();
    try {
      const tools = await open();
      const own = new Map(tools.map((tool) => [tool.name, tool]));
      return { registry: createToolRegistry(base.names.map((name) => own.get(name) ?? base.get(name)!)) };
    } catch (error) {
      return {
        registry: createToolRegistry([]),
        failure: serializeError(
          new TroupeError(
            'WORKSPACE_UNAVAILABLE',
            `Task ${taskId} could not open its workspace (${workspace.isolation} at ${workspace.path}): ${describeThrown(error)}`,
          ),
        ),
      };
    }
  });
}

/**
 * The runtime's side of {@link TaskWorkspaces}: plans a task's workspace at spawn, puts the
 * workspace's tools in its registry when it starts, and closes the workspace when it ends, before
 * its result is recorded (the result names what became of it). `idle()` waits for the closes in
 * flight (shutdown waits for them before the store closes).
 */
export class WorkspaceKeeper {
  private readonly workspaces: TaskWorkspaces | undefined;
  private readonly warn: (taskId: string, message: string) => void;
  private readonly closing = new Map<string, Promise<unknown>>();

  constructor(workspaces: TaskWorkspaces | undefined, warn: (taskId: string, message: string) => void) {
    this.workspaces = workspaces;
    this.warn = warn;
  }

  /** The task's workspace record, if its agent asks for one; throws when this host gives none. */
  plan(definition: AgentDefinition, taskId: string): TaskWorkspaceRecord | undefined {
    const isolation = definition.isolation;
    if (!isolation) return undefined;
    if (!this.workspaces)
      throw new TroupeError(
        'WORKSPACE_UNAVAILABLE',
        `Agent "${definition.name}" asks for isolation: ${isolation}, which this host does not give (createRuntime({ workspaces }); in Node, @troupe/node's createWorktreeWorkspaces). Remove isolation from the agent to run it in the shared workspace.`,
      );
    return this.workspaces.plan({ taskId, agent: definition.name, isolation });
  }

  /** The registry a starting (or restored) task runs with: its workspace's tools once ready. */
  registryFor(registry: ToolRegistry, spec: TaskSpec): ToolRegistry {
    const { workspace } = spec;
    const workspaces = this.workspaces;
    if (!workspace || !workspaces) return registry;
    return withTaskWorkspace(
      registry,
      workspace,
      () => workspaces.open(workspace, { taskId: spec.taskId, agent: spec.agent }),
      spec.taskId,
    );
  }

  /**
   * When the task has a workspace: closes it and calls `settle` with the result naming what became
   * of it (or with the result as it is, and a warning, when closing failed). Else `settle` at once.
   */
  close(spec: TaskSpec, result: TaskResult, settle: (result: TaskResult) => void): void {
    const { workspace } = spec;
    const workspaces = this.workspaces;
    if (!workspace || !workspaces) {
      settle(result);
      return;
    }
    if (this.closing.has(spec.taskId)) return;
    const closed = (async () => {
      try {
        const outcome = await workspaces.close(workspace, { taskId: spec.taskId });
        settle(outcome ? { ...result, workspace: outcome } : result);
      } catch (error) {
        this.warn(
          spec.taskId,
          `Task ${spec.taskId}: its workspace at ${workspace.path} could not be closed (${describeThrown(error)}); it is left as it is.`,
        );
        settle(result);
      } finally {
        this.closing.delete(spec.taskId);
      }
    })();
    this.closing.set(spec.taskId, closed);
  }

  /** Resolves once every close in flight has settled its task. */
  async idle(): Promise<void> {
    while (this.closing.size) await Promise.all(this.closing.values());
  }
}
