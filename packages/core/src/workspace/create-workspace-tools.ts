import type { Tool } from '../tools/define-tool.js';
import { createEditTool } from './edit-tool.js';
import type { WorkspaceFileSystem } from './file-system.js';
import { createGlobTool } from './glob-tool.js';
import { createGrepTool } from './grep-tool.js';
import { createLsTool } from './ls-tool.js';
import type { WorkspaceToolsOptions } from './options.js';
import { createReadTool } from './read-tool.js';
import { createWriteTool } from './write-tool.js';

/**
 * The workspace tools over one file system: `read`, `glob`, `grep`, `ls` (access `read`),
 * `write`, `edit` (access `write`), in that order. Throws a `RangeError` when a numeric option is
 * not positive.
 */
export function createWorkspaceTools(
  fileSystem: WorkspaceFileSystem,
  options: WorkspaceToolsOptions = {},
): Tool[] {
  return [
    createReadTool(fileSystem, options),
    createGlobTool(fileSystem, options),
    createGrepTool(fileSystem, options),
    createLsTool(fileSystem, options),
    createWriteTool(fileSystem),
    createEditTool(fileSystem, options),
  ];
}
