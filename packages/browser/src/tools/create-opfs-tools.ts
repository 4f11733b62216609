import type { Tool } from '@troupe/core';
import { createWorkspaceTools, type WorkspaceToolsOptions } from '@troupe/core/workspace';
import { createOpfsFileSystem } from './opfs-file-system.js';
import type { OpfsWorkspace } from './opfs-workspace.js';

/**
 * The workspace tools over one Origin Private File System folder: core's `read`, `glob`, `grep`,
 * `ls` (access `read`), `write`, `edit` (access `write`), the very tools `@troupe/node` gives over
 * a directory, with the same names, schemas, output and limits (`options`). Every path is confined
 * to the folder; `grep` takes JavaScript regular expressions.
 */
export function createOpfsTools(workspace: OpfsWorkspace, options: WorkspaceToolsOptions = {}): Tool[] {
  return createWorkspaceTools(createOpfsFileSystem(workspace), options);
}
