import { lstat, readdir, readlink, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { defineTool, type Tool } from '@troupe/core';
import * as v from 'valibot';
import { confinedFailure, inConfinedDirectory } from './confined-open.js';
import {
  type NodeToolsContext,
  type NodeToolsOptions,
  resolveNodeToolsOptions,
} from './node-tools-options.js';
import { toolFailure } from './tool-failure.js';
import { truncateHead } from './truncate.js';

const lsInput = v.object({
  path: v.optional(
    v.pipe(
      v.string(),
      v.description('Directory to list: absolute, or relative to the workspace root (default: the root).'),
    ),
  ),
});

/** Input of the `ls` tool. */
export type LsInput = v.InferOutput<typeof lsInput>;

function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/**
 * The `ls` tool (access `read`): lists one directory, directories first (with a trailing `/`),
 * then files with their sizes; symbolic links show their target.
 */
export function createLsTool(options: NodeToolsOptions | NodeToolsContext): Tool<LsInput> {
  const context = resolveNodeToolsOptions(options);
  const { workspace } = context;
  return defineTool({
    name: 'ls',
    access: 'read',
    description:
      'Lists the entries of one directory in the workspace: subdirectories first (ending in "/"), then files ' +
      'with their sizes; symbolic links show "-> target". Not recursive: use glob to find files by pattern.',
    input: lsInput,
    async execute({ path = '.' }) {
      const directory = await workspace.resolveExisting(path, 'ls');
      if (!(await stat(directory)).isDirectory()) {
        throw toolFailure('ls', `"${path}" is a file, not a directory: use read to see its contents.`, {
          path,
        });
      }
      const { directories, files } = await inConfinedDirectory(
        directory,
        workspace.realRoot,
        listEntries,
      ).catch(confinedFailure('ls'));
      const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
      directories.sort(byName);
      files.sort(byName);
      const shown = workspace.display(directory);
      if (directories.length + files.length === 0) return `${shown}/ is empty.`;
      const header = `${shown}/ (${directories.length} directories, ${files.length} files)`;
      return truncateHead(
        [header, ...directories, ...files].join('\n'),
        context.maxOutputChars,
        'List a subdirectory instead.',
      );
    },
  });
}

/** The entries of a directory reached at `directory`, looked at without following links. */
async function listEntries(directory: string): Promise<{ directories: string[]; files: string[] }> {
  const entries = await readdir(directory, { withFileTypes: true });
  const directories: string[] = [];
  const files: string[] = [];
  for (const entry of entries) {
    const full = join(directory, entry.name);
    if (entry.isDirectory()) directories.push(`${entry.name}/`);
    else if (entry.isSymbolicLink()) {
      const target = await readlink(full).catch(() => '?');
      files.push(`${entry.name} -> ${target}`);
    } else if (entry.isFile()) {
      const info = await lstat(full).catch(() => undefined);
      files.push(info ? `${entry.name}  (${size(info.size)})` : entry.name);
    } else files.push(`${entry.name}  (special file)`);
  }
  return { directories, files };
}
