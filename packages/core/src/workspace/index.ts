// @troupe/core/workspace: the workspace tools (read, write, edit, ls, glob, grep), written once
// over the WorkspaceFileSystem port that @troupe/node (node:fs) and @troupe/browser (OPFS) implement.
export { createWorkspaceTools } from './create-workspace-tools.js';
export { createEditTool, type EditInput } from './edit-tool.js';
export type {
  GlobRequest,
  WorkspaceDirectoryEntry,
  WorkspaceEntryInfo,
  WorkspaceFileSystem,
} from './file-system.js';
export {
  comparePaths,
  confinePattern,
  createGlobFilter,
  type GlobFilter,
  globToRegExp,
} from './glob-pattern.js';
export { createGlobTool, type GlobInput } from './glob-tool.js';
export { type ScanSource, scanSearch } from './grep-scan.js';
export { createGrepTool, type GrepInput } from './grep-tool.js';
export type { GrepEngine, GrepFileResult, GrepLine, GrepQuery, GrepSink } from './grep-types.js';
export { createLsTool, type LsInput } from './ls-tool.js';
export {
  type ResolvedWorkspaceToolsOptions,
  resolveWorkspaceToolsOptions,
  type WorkspaceToolsOptions,
} from './options.js';
export { type PatternRunner, SearchPatternError } from './pattern-runner.js';
export { createReadTool, type ReadInput } from './read-tool.js';
export { DEFAULT_MAX_OUTPUT_CHARS, truncateHead } from './text.js';
export { toolFailure } from './tool-failure.js';
export { createWriteTool, type WriteInput } from './write-tool.js';
