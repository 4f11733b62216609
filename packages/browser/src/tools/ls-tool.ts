import { defineTool, type Tool } from '@troupe/core';
import * as v from 'valibot';
import type { OpfsWorkspace } from './opfs-workspace.js';
import { MAX_OUTPUT_CHARS, truncateHead } from './text.js';
import { toolFailure } from './tool-failure.js';

const lsInput = v.object({
  path: v.optional(
    v.pipe(
      v.string(),
      v.description('Directory to list: absolute, or relative to the workspace root (default: the root).'),
    ),
  ),
});

function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** The `ls` tool over OPFS (access `read`): one directory, subdirectories first, then files with sizes. */
export function createOpfsLsTool(workspace: OpfsWorkspace): Tool<v.InferOutput<typeof lsInput>> {
  return defineTool({
    name: 'ls',
    access: 'read',
    description:
      'Lists the entries of one directory in the workspace: subdirectories first (ending in "/"), then files ' +
      'with their sizes. Not recursive: use glob to find files by pattern.',
    input: lsInput,
    async execute({ path = '.' }) {
      const segments = workspace.segments(path, 'ls');
      const entry = await workspace.entry(segments);
      if (!entry) throw toolFailure('ls', `"${path}" does not exist in the workspace.`, { path });
      if (entry.kind === 'file') {
        throw toolFailure('ls', `"${path}" is a file, not a directory: use read to see its contents.`, {
          path,
        });
      }
      const directories: string[] = [];
      const files: string[] = [];
      for await (const [name, handle] of (entry as FileSystemDirectoryHandle).entries()) {
        if (handle.kind === 'directory') directories.push(`${name}/`);
        else files.push(`${name}  (${size((await (handle as FileSystemFileHandle).getFile()).size)})`);
      }
      directories.sort();
      files.sort();
      const shown = workspace.display(segments);
      if (directories.length + files.length === 0) return `${shown}/ is empty.`;
      const header = `${shown}/ (${directories.length} directories, ${files.length} files)`;
      return truncateHead(
        [header, ...directories, ...files].join('\n'),
        MAX_OUTPUT_CHARS,
        'List a subdirectory instead.',
      );
    },
  });
}
