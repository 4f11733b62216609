import { defineTool, type Tool } from '@troupe/core';
import * as v from 'valibot';
import type { OpfsWorkspace } from './opfs-workspace.js';
import { linesOf, MAX_OUTPUT_CHARS, numbered, READ_DEFAULT_LIMIT, truncateHead } from './text.js';
import { toolFailure } from './tool-failure.js';

const readInput = v.object({
  file_path: v.pipe(
    v.string(),
    v.minLength(1),
    v.description('Path of the file to read: absolute, or relative to the workspace root.'),
  ),
  offset: v.optional(
    v.pipe(
      v.number(),
      v.integer(),
      v.minValue(1),
      v.description('Line number to start reading at (1-based).'),
    ),
  ),
  limit: v.optional(
    v.pipe(v.number(), v.integer(), v.minValue(1), v.description('Number of lines to read from the offset.')),
  ),
});

/** Reads a workspace file as text; throws a tool failure for a directory, a missing or a binary file. */
export async function readText(workspace: OpfsWorkspace, path: string, tool: string): Promise<string> {
  const entry = await workspace.entry(workspace.segments(path, tool));
  if (!entry) throw toolFailure(tool, `"${path}" does not exist in the workspace.`, { path });
  if (entry.kind === 'directory') {
    throw toolFailure(tool, `"${path}" is a directory, not a file: use ls to list it.`, { path });
  }
  const text = await (await (entry as FileSystemFileHandle).getFile()).text();
  if (text.includes('\0'))
    throw toolFailure(tool, `"${path}" is a binary file: only text files are read.`, { path });
  return text;
}

/** The `read` tool over OPFS (access `read`): a text file's lines numbered like `cat -n`. */
export function createOpfsReadTool(workspace: OpfsWorkspace): Tool<v.InferOutput<typeof readInput>> {
  return defineTool({
    name: 'read',
    access: 'read',
    description:
      'Reads a text file from the workspace and returns its lines numbered like `cat -n` (number, tab, text). ' +
      `By default it returns the first ${READ_DEFAULT_LIMIT} lines; pass offset (1-based line) and limit to read ` +
      'a part of a long file. Binary files are refused; use ls for directories.',
    input: readInput,
    async execute({ file_path, offset = 1, limit = READ_DEFAULT_LIMIT }) {
      const lines = linesOf(await readText(workspace, file_path, 'read'));
      if (lines.length === 0) return `(The file "${file_path}" is empty.)`;
      if (offset > lines.length) {
        throw toolFailure(
          'read',
          `"${file_path}" has ${lines.length} lines; offset ${offset} is past its end.`,
          {
            path: file_path,
            lines: lines.length,
          },
        );
      }
      const shown = lines
        .slice(offset - 1, offset - 1 + limit)
        .map((line, index) => numbered(offset + index, line));
      let text = shown.join('\n');
      const last = offset - 1 + shown.length;
      if (last < lines.length)
        text += `\n\n[More lines follow: read again with offset ${last + 1} to continue.]`;
      return truncateHead(
        text,
        MAX_OUTPUT_CHARS,
        'Read a smaller range with offset and limit to see the rest.',
      );
    },
  });
}
