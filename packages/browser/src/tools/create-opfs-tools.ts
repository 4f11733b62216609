import type { Tool } from '@troupe/core';
import { createOpfsEditTool } from './edit-tool.js';
import { createOpfsGlobTool } from './glob-tool.js';
import { createOpfsGrepTool } from './grep-tool.js';
import { createOpfsLsTool } from './ls-tool.js';
import type { OpfsWorkspace } from './opfs-workspace.js';
import { createOpfsReadTool } from './read-tool.js';
import { createOpfsWriteTool } from './write-tool.js';

/**
 * The workspace tools over one Origin Private File System folder, with the Node tools' names,
 * input schemas and access classes: `read`, `glob`, `grep`, `ls` (access `read`), `write`, `edit`
 * (access `write`). Every path is confined to the folder.
 */
export function createOpfsTools(workspace: OpfsWorkspace): Tool[] {
  return [
    createOpfsReadTool(workspace),
    createOpfsGlobTool(workspace),
    createOpfsGrepTool(workspace),
    createOpfsLsTool(workspace),
    createOpfsWriteTool(workspace),
    createOpfsEditTool(workspace),
  ];
}
