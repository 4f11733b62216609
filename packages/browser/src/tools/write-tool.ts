import { defineTool, type Tool } from '@troupe/core';
import * as v from 'valibot';
import type { OpfsWorkspace } from './opfs-workspace.js';
import { toolFailure } from './tool-failure.js';

const writeInput = v.object({
  file_path: v.pipe(
    v.string(),
    v.minLength(1),
    v.description('Path of the file to write: absolute, or relative to the workspace root.'),
  ),
  content: v.pipe(v.string(), v.description('The complete new contents of the file.')),
});

/** The `write` tool over OPFS (access `write`): creates or overwrites a file, creating parent folders. */
export function createOpfsWriteTool(workspace: OpfsWorkspace): Tool<v.InferOutput<typeof writeInput>> {
  return defineTool({
    name: 'write',
    access: 'write',
    description:
      'Creates a file, or overwrites it completely, with the given content; missing parent directories are ' +
      'created. Prefer edit to change part of an existing file. Read a file before overwriting it.',
    input: writeInput,
    async execute({ file_path, content }) {
      const segments = workspace.segments(file_path, 'write');
      if (segments.length === 0) throw toolFailure('write', 'Pass a file path, not the workspace root.');
      const existing = await workspace.entry(segments);
      if (existing?.kind === 'directory') {
        throw toolFailure('write', `"${file_path}" is a directory: pass a file path.`, { path: file_path });
      }
      await workspace.writeFile(segments, content);
      const lines = content.length === 0 ? 0 : content.split('\n').length - (content.endsWith('\n') ? 1 : 0);
      const bytes = new TextEncoder().encode(content).length;
      return `${existing ? 'Overwrote' : 'Created'} ${workspace.display(segments)} (${lines} lines, ${bytes.toLocaleString('en-US')} bytes).`;
    },
  });
}
