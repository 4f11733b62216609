import type { Tool } from '@troupe/core';
import {
  createEditTool as createWorkspaceEditTool,
  createGlobTool as createWorkspaceGlobTool,
  createGrepTool as createWorkspaceGrepTool,
  createLsTool as createWorkspaceLsTool,
  createReadTool as createWorkspaceReadTool,
  createWriteTool as createWorkspaceWriteTool,
  type EditInput,
  type GlobInput,
  type GrepInput,
  type LsInput,
  type ReadInput,
  type WorkspaceToolsOptions,
  type WriteInput,
} from '@troupe/core/workspace';
import { nodeFileSystemOf } from './node-file-system.js';
import {
  type NodeToolsContext,
  type NodeToolsOptions,
  resolveNodeToolsOptions,
} from './node-tools-options.js';

// The workspace tools are core's (`@troupe/core/workspace`), here over the workspace root's file
// system (`node-file-system.ts`): what is Node's is only how files are found, opened and confined.

function workspaceOf(options: NodeToolsOptions | NodeToolsContext) {
  const context = resolveNodeToolsOptions(options);
  const toolOptions: WorkspaceToolsOptions = {
    ...context,
    grepAdvice: 'Use this instead of running grep or rg through bash.',
  };
  return { fileSystem: nodeFileSystemOf(context), options: toolOptions };
}

/**
 * The `read` tool (access `read`): a text file's lines numbered like `cat -n`, from `offset` for
 * `limit` lines (default: the first 2,000). Refuses binary files and directories.
 */
export function createReadTool(options: NodeToolsOptions | NodeToolsContext): Tool<ReadInput> {
  const { fileSystem, options: toolOptions } = workspaceOf(options);
  return createWorkspaceReadTool(fileSystem, toolOptions);
}

/**
 * The `write` tool (access `write`): creates or overwrites a file, creating parent directories.
 * The path, through any symbolic link, must stay in the workspace.
 */
export function createWriteTool(options: NodeToolsOptions | NodeToolsContext): Tool<WriteInput> {
  return createWorkspaceWriteTool(workspaceOf(options).fileSystem);
}

/**
 * The `edit` tool (access `write`): replaces an exact string in a file (every occurrence with
 * `replace_all`); an empty `old_string` creates a new file.
 */
export function createEditTool(options: NodeToolsOptions | NodeToolsContext): Tool<EditInput> {
  const { fileSystem, options: toolOptions } = workspaceOf(options);
  return createWorkspaceEditTool(fileSystem, toolOptions);
}

/**
 * The `ls` tool (access `read`): one directory, directories first (with a trailing `/`), then files
 * with their sizes; symbolic links show their target.
 */
export function createLsTool(options: NodeToolsOptions | NodeToolsContext): Tool<LsInput> {
  const { fileSystem, options: toolOptions } = workspaceOf(options);
  return createWorkspaceLsTool(fileSystem, toolOptions);
}

/**
 * The `glob` tool (access `read`): files matching a glob pattern, newest first (or by path, see
 * `globSort`), at most `globMaxResults`; `.git` and `node_modules` skipped unless named.
 */
export function createGlobTool(options: NodeToolsOptions | NodeToolsContext): Tool<GlobInput> {
  const { fileSystem, options: toolOptions } = workspaceOf(options);
  return createWorkspaceGlobTool(fileSystem, toolOptions);
}

/**
 * The `grep` tool (access `read`): searches file contents through ripgrep when it is installed and
 * core's JavaScript scan otherwise (same files, same results), in path order.
 */
export function createGrepTool(options: NodeToolsOptions | NodeToolsContext): Tool<GrepInput> {
  const { fileSystem, options: toolOptions } = workspaceOf(options);
  return createWorkspaceGrepTool(fileSystem, toolOptions);
}
