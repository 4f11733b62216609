import type { Tool } from '@troupe/core';
import { createBashTool } from './bash-tool.js';
import { type NodeToolsOptions, resolveNodeToolsOptions } from './node-tools-options.js';
import {
  createEditTool,
  createGlobTool,
  createGrepTool,
  createLsTool,
  createReadTool,
  createWriteTool,
} from './workspace-tools.js';

/**
 * The Node tools a coding agent needs, all confined to `options.root`: `read`, `glob`, `grep`,
 * `ls` (access `read`), `write`, `edit` (access `write`) and `bash` (access `execute`). Throws
 * when the root is not an existing directory.
 */
export function createNodeTools(options: NodeToolsOptions): Tool[] {
  const context = resolveNodeToolsOptions(options);
  return [
    createReadTool(context),
    createGlobTool(context),
    createGrepTool(context),
    createLsTool(context),
    createWriteTool(context),
    createEditTool(context),
    createBashTool(context),
  ];
}
