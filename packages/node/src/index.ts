// The public API of @troupe/node: Node tools, the file store, agent directories.
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
  createFileStore,
  DEFAULT_RETENTION_MS,
  type FileStore,
  type FileStoreOptions,
} from './store/file-store.js';
export { type BashInput, createBashTool } from './tools/bash-tool.js';
export { createNodeTools } from './tools/create-node-tools.js';
export { createEditTool, type EditInput } from './tools/edit-tool.js';
export { createGlobTool, type GlobInput } from './tools/glob-tool.js';
export { isRipgrepAvailable } from './tools/grep-ripgrep.js';
export { createGrepTool, type GrepInput } from './tools/grep-tool.js';
export { createLsTool, type LsInput } from './tools/ls-tool.js';
export {
  type NodeToolsContext,
  type NodeToolsOptions,
  resolveNodeToolsOptions,
} from './tools/node-tools-options.js';
export { createReadTool, type ReadInput } from './tools/read-tool.js';
export { DEFAULT_MAX_OUTPUT_CHARS } from './tools/truncate.js';
export { createWorkspace, type Workspace } from './tools/workspace.js';
export { createWriteTool, type WriteInput } from './tools/write-tool.js';
