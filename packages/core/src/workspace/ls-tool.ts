import * as v from 'valibot';
import { defineTool, type Tool } from '../tools/define-tool.js';
import type { WorkspaceDirectoryEntry, WorkspaceFileSystem } from './file-system.js';
import { resolveWorkspaceToolsOptions, type WorkspaceToolsOptions } from './options.js';
import { truncateHead } from './text.js';
import { toolFailure } from './tool-failure.js';

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

function describeEntry(entry: WorkspaceDirectoryEntry): string {
  if (entry.kind === 'link') return `${entry.name} -> ${entry.target ?? '?'}`;
  if (entry.kind === 'other') return `${entry.name}  (special file)`;
  return entry.size === undefined ? entry.name : `${entry.name}  (${size(entry.size)})`;
}

const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The `ls` tool (access `read`): lists one directory, directories first (with a trailing `/`),
 * then files with their sizes; symbolic links show their target.
 */
export function createLsTool(
  fileSystem: WorkspaceFileSystem,
  options: WorkspaceToolsOptions = {},
): Tool<LsInput> {
  const { maxOutputChars } = resolveWorkspaceToolsOptions(options);
  return defineTool({
    name: 'ls',
    access: 'read',
    description:
      'Lists the entries of one directory in the workspace: subdirectories first (ending in "/"), then files ' +
      'with their sizes; symbolic links show "-> target". Not recursive: use glob to find files by pattern.',
    input: lsInput,
    async execute({ path = '.' }) {
      const directory = await fileSystem.resolveExisting(path, 'ls');
      if ((await fileSystem.stat(directory))?.kind !== 'directory') {
        throw toolFailure('ls', `"${path}" is a file, not a directory: use read to see its contents.`, {
          path,
        });
      }
      const entries = await fileSystem.list(directory, 'ls');
      const directories = entries
        .filter((entry) => entry.kind === 'directory')
        .map((entry) => `${entry.name}/`)
        .sort(byName);
      const files = entries
        .filter((entry) => entry.kind !== 'directory')
        .map(describeEntry)
        .sort(byName);
      const shown = fileSystem.display(directory);
      if (directories.length + files.length === 0) return `${shown}/ is empty.`;
      const header = `${shown}/ (${directories.length} directories, ${files.length} files)`;
      return truncateHead(
        [header, ...directories, ...files].join('\n'),
        maxOutputChars,
        'List a subdirectory instead.',
      );
    },
  });
}
