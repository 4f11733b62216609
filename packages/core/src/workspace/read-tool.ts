import * as v from 'valibot';
import { defineTool, type Tool } from '../tools/define-tool.js';
import type { WorkspaceFileSystem } from './file-system.js';
import { resolveWorkspaceToolsOptions, type WorkspaceToolsOptions } from './options.js';
import { displayLine, numberedLine, truncateHead } from './text.js';
import { scanTextBlocks } from './text-blocks.js';
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

/** Input of the `read` tool. */
export type ReadInput = v.InferOutput<typeof readInput>;

/**
 * The `read` tool (access `read`): returns a text file's lines numbered like `cat -n`, from
 * `offset` for `limit` lines (default: the first 2,000), streaming. Refuses binary files,
 * directories and special files.
 */
export function createReadTool(
  fileSystem: WorkspaceFileSystem,
  options: WorkspaceToolsOptions = {},
): Tool<ReadInput> {
  const { readDefaultLimit, maxLineChars, maxOutputChars } = resolveWorkspaceToolsOptions(options);
  return defineTool({
    name: 'read',
    access: 'read',
    description:
      'Reads a text file from the workspace and returns its lines numbered like `cat -n` (number, tab, text). ' +
      `By default it returns the first ${readDefaultLimit} lines; pass offset (1-based line) and limit ` +
      'to read a part of a long file. Lines longer than ' +
      `${maxLineChars} characters are cut. Binary files are refused; use ls for directories.`,
    input: readInput,
    async execute({ file_path, offset = 1, limit = readDefaultLimit }, { signal }) {
      const path = await fileSystem.resolveExisting(file_path, 'read');
      const info = await fileSystem.stat(path);
      if (info?.kind === 'directory') {
        throw toolFailure('read', `"${file_path}" is a directory, not a file: use ls to list it.`, {
          path: file_path,
        });
      }
      if (info?.kind !== 'file')
        throw toolFailure('read', `"${file_path}" is not a regular file.`, { path: file_path });
      const lines: string[] = [];
      const last = offset + limit - 1;
      let moreAfter = false;
      const scan = await scanTextBlocks(
        fileSystem.readText(path, 'read', signal),
        (block, firstLine, lineCount) => {
          if (firstLine + lineCount - 1 < offset) return true;
          const parts = block.split('\n');
          for (let index = 0; index < parts.length; index++) {
            const number = firstLine + index;
            if (number < offset) continue;
            if (number > last) {
              moreAfter = true;
              return false;
            }
            lines.push(numberedLine(number, displayLine(parts[index]!, maxLineChars)));
          }
          return true;
        },
        signal,
      );
      if (scan.binary) {
        throw toolFailure(
          'read',
          `"${file_path}" is a binary file (${info.size.toLocaleString('en-US')} bytes; it contains NUL bytes): read only shows text files.`,
          { path: file_path },
        );
      }
      if (scan.lines === 0) return `(The file "${file_path}" is empty.)`;
      if (lines.length === 0) {
        throw toolFailure(
          'read',
          `"${file_path}" has ${scan.lines} lines; offset ${offset} is past its end.`,
          {
            path: file_path,
            lines: scan.lines,
          },
        );
      }
      let text = lines.join('\n');
      if (moreAfter) text += `\n\n[More lines follow: read again with offset ${last + 1} to continue.]`;
      return truncateHead(
        text,
        maxOutputChars,
        'Read a smaller range with offset and limit to see the rest.',
      );
    },
  });
}
