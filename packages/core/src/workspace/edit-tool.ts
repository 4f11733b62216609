import * as v from 'valibot';
import { defineTool, type Tool } from '../tools/define-tool.js';
import type { WorkspaceFileSystem } from './file-system.js';
import { resolveWorkspaceToolsOptions, type WorkspaceToolsOptions } from './options.js';
import { countNewlines, displayLine, numberedLine } from './text.js';
import { readWholeText } from './text-blocks.js';
import { toolFailure } from './tool-failure.js';

const editInput = v.object({
  file_path: v.pipe(
    v.string(),
    v.minLength(1),
    v.description('Path of the file to edit: absolute, or relative to the workspace root.'),
  ),
  old_string: v.pipe(
    v.string(),
    v.description(
      'The exact text to replace, including whitespace and indentation. Empty to create a new file.',
    ),
  ),
  new_string: v.pipe(
    v.string(),
    v.description('The text to put in its place (must differ from old_string).'),
  ),
  replace_all: v.optional(
    v.pipe(v.boolean(), v.description('Replace every occurrence instead of exactly one (default false).')),
  ),
});

/** Input of the `edit` tool. */
export type EditInput = v.InferOutput<typeof editInput>;

const occurrences = (text: string, search: string) => text.split(search).length - 1;

/** A few numbered lines around the first place `replacement` now stands, to confirm the edit. */
function snippet(text: string, at: number, replacement: string, maxLineChars: number): string {
  const firstLine = countNewlines(text.slice(0, at)) + 1;
  const lastLine = firstLine + countNewlines(replacement);
  const lines = text.split('\n');
  if (text.endsWith('\n')) lines.pop();
  const from = Math.max(1, firstLine - 3);
  const to = Math.min(lines.length, lastLine + 3, from + 40);
  const shown: string[] = [];
  for (let line = from; line <= to; line++) {
    shown.push(numberedLine(line, displayLine(lines[line - 1] ?? '', maxLineChars)));
  }
  return shown.join('\n');
}

/**
 * The `edit` tool (access `write`): replaces an exact string in a file. Fails when the string is
 * missing, or appears more than once without `replace_all`. An empty `old_string` creates a new
 * file. Windows line endings in the file are matched when the strings use `\n`.
 */
export function createEditTool(
  fileSystem: WorkspaceFileSystem,
  options: WorkspaceToolsOptions = {},
): Tool<EditInput> {
  const { maxLineChars } = resolveWorkspaceToolsOptions(options);
  return defineTool({
    name: 'edit',
    access: 'write',
    description:
      'Replaces exact text in a file. old_string must match the file exactly (whitespace and indentation ' +
      'included) and be unique in it; include surrounding lines to make it unique, or set replace_all to ' +
      'change every occurrence. With an empty old_string, creates a new file containing new_string. Read the ' +
      'file first.',
    input: editInput,
    async execute({ file_path, old_string, new_string, replace_all = false }) {
      const path = await fileSystem.resolveForWrite(file_path, 'edit');
      const info = await fileSystem.stat(path);
      if (old_string === '') {
        if (info) {
          throw toolFailure(
            'edit',
            `"${file_path}" already exists: an empty old_string only creates new files. Give the text to replace, or use write.`,
            { path: file_path },
          );
        }
        await fileSystem.writeText(path, new_string, 'edit');
        return `Created ${fileSystem.display(path)} (${countNewlines(new_string) + 1} lines).`;
      }
      if (!info) {
        throw toolFailure('edit', `"${file_path}" does not exist in the workspace "${fileSystem.root}".`, {
          path: file_path,
        });
      }
      if (info.kind !== 'file')
        throw toolFailure('edit', `"${file_path}" is not a regular file.`, { path: file_path });
      if (old_string === new_string) {
        throw toolFailure('edit', 'old_string and new_string are identical: there is nothing to change.', {
          path: file_path,
        });
      }
      const text = await readWholeText(fileSystem.readText(path, 'edit'));
      if (text === undefined) {
        throw toolFailure('edit', `"${file_path}" is a binary file: edit only changes text files.`, {
          path: file_path,
        });
      }
      let search = old_string;
      let replacement = new_string;
      let count = occurrences(text, search);
      if (count === 0 && text.includes('\r\n') && !search.includes('\r\n')) {
        search = old_string.replaceAll('\n', '\r\n');
        replacement = new_string.replaceAll('\n', '\r\n');
        count = occurrences(text, search);
      }
      if (count === 0) {
        throw toolFailure(
          'edit',
          `old_string was not found in "${file_path}". It must match the file exactly, including whitespace and indentation: read the file and copy the text.`,
          { path: file_path },
        );
      }
      if (count > 1 && !replace_all) {
        throw toolFailure(
          'edit',
          `old_string appears ${count} times in "${file_path}". Include more surrounding lines to make it unique, or set replace_all to true to replace all ${count}.`,
          { path: file_path, occurrences: count },
        );
      }
      const at = text.indexOf(search);
      // split/join, not String.replace: `$&` and friends in the new text must stay literal.
      const updated = replace_all
        ? text.split(search).join(replacement)
        : text.slice(0, at) + replacement + text.slice(at + search.length);
      await fileSystem.writeText(path, updated, 'edit');
      const what = count === 1 ? '1 occurrence' : `${count} occurrences`;
      return `Edited ${fileSystem.display(path)}: replaced ${what}.\n${snippet(updated, at, replacement, maxLineChars)}`;
    },
  });
}
