import { serializeError, TroupeError } from '../errors.js';
import { describeThrown } from '../persistence/plain-json.js';
import type { TaskWorkspaceOutcome, TaskWorkspaceRecord } from '../persistence/types.js';
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
