// The public API of @troupe/node: Node tools, the file store, agent directories.

export {
  DEFAULT_MAX_OUTPUT_CHARS,
  type EditInput,
  type GlobInput,
  type GrepInput,
  type LsInput,
  type ReadInput,
  type WriteInput,
} from '@troupe/core/workspace';
export { type CreateAgentFileOptions, createAgentFile, deleteAgentFile } from './agents/agent-files.js';
export { BUILTIN_AGENT_FILES, type BuiltinAgentFile } from './agents/builtin-agent-files.js';
export {
  type AgentDirectory,
  agentDirectories,
  type LoadAgentDirectoriesOptions,
  loadAgentDirectories,
  readAgentFile,
} from './agents/load-agent-directories.js';
export {
  type HookConfig,
  type HookEventName,
  type HookHandler,
  type HookMatcher,
  type HookProblem,
  type HttpHook,
  hasHooks,
  type PromptHook,
  readHookConfig,
  type ShellHook,
} from './hooks/hook-config.js';
export { createShellHooks, type ShellHooksOptions } from './hooks/shell-hooks.js';
export { type AgentMemoryOptions, agentMemoryFolder, createAgentMemory } from './memory/agent-memory.js';
export { type LoadedSkills, loadSkills, type SkillPlaces, skillDirectories } from './skills/load-skills.js';
export {
  createFileStore,
  DEFAULT_RETENTION_MS,
  type FileStore,
  type FileStoreOptions,
} from './store/file-store.js';
export { type BashInput, createBashTool } from './tools/bash-tool.js';
export { createNodeTools } from './tools/create-node-tools.js';
export { isRipgrepAvailable } from './tools/grep-ripgrep.js';
export { createNodeFileSystem } from './tools/node-file-system.js';
export {
  type NodeToolsContext,
  type NodeToolsOptions,
  resolveNodeToolsOptions,
} from './tools/node-tools-options.js';
export { createWorkspace, type Workspace } from './tools/workspace.js';
export {
  createEditTool,
  createGlobTool,
  createGrepTool,
  createLsTool,
  createReadTool,
  createWriteTool,
} from './tools/workspace-tools.js';
export {
  createWorktreeWorkspaces,
  type WorktreeWorkspacesOptions,
} from './worktree/worktree-workspaces.js';
