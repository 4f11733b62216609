import { defineTool, type Tool } from '@troupe/core';
import * as v from 'valibot';
import type { OpfsWorkspace } from './opfs-workspace.js';
import { readText } from './read-tool.js';
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

/**
 * The `edit` tool over OPFS (access `write`): replaces an exact, unique string in a file (or every
 * occurrence with `replace_all`); an empty `old_string` creates a new file.
 */
export function createOpfsEditTool(workspace: OpfsWorkspace): Tool<v.InferOutput<typeof editInput>> {
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
      const segments = workspace.segments(file_path, 'edit');
      if (old_string === '') {
        if (await workspace.entry(segments)) {
          throw toolFailure(
            'edit',
            `"${file_path}" already exists: an empty old_string only creates new files.`,
            {
              path: file_path,
            },
          );
        }
        await workspace.writeFile(segments, new_string);
        return `Created ${workspace.display(segments)}.`;
      }
      if (old_string === new_string) {
        throw toolFailure('edit', 'old_string and new_string are identical: there is nothing to change.');
      }
      const text = await readText(workspace, file_path, 'edit');
      let search = old_string;
      let replacement = new_string;
      let count = text.split(search).length - 1;
      if (count === 0 && text.includes('\r\n') && !search.includes('\r\n')) {
        search = old_string.replaceAll('\n', '\r\n');
        replacement = new_string.replaceAll('\n', '\r\n');
        count = text.split(search).length - 1;
      }
      if (count === 0) {
        throw toolFailure(
          'edit',
          `old_string was not found in "${file_path}": read the file and copy the text.`,
          {
            path: file_path,
          },
        );
      }
      if (count > 1 && !replace_all) {
        throw toolFailure(
          'edit',
          `old_string appears ${count} times in "${file_path}". Include more surrounding lines, or set replace_all.`,
          { path: file_path, occurrences: count },
        );
      }
      const at = text.indexOf(search);
      const updated = replace_all
        ? text.split(search).join(replacement)
        : text.slice(0, at) + replacement + text.slice(at + search.length);
      await workspace.writeFile(segments, updated);
      return `Edited ${workspace.display(segments)}: replaced ${count === 1 ? '1 occurrence' : `${count} occurrences`}.`;
    },
  });
}
