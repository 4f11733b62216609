import * as v from 'valibot';
import { defineTool, type Tool } from '../tools/define-tool.js';
import type { WorkspaceFileSystem } from './file-system.js';
import { utf8ByteLength } from './text.js';
import { toolFailure } from './tool-failure.js';

const writeInput = v.object({
  file_path: v.pipe(
    v.string(),
    v.minLength(1),
    v.description('Path of the file to write: absolute, or relative to the workspace root.'),
  ),
  content: v.pipe(v.string(), v.description('The complete new contents of the file.')),
});

/** Input of the `write` tool. */
export type WriteInput = v.InferOutput<typeof writeInput>;

/**
 * The `write` tool (access `write`): creates or overwrites a file with the given content,
 * creating parent directories. The path must stay in the workspace.
 */
export function createWriteTool(fileSystem: WorkspaceFileSystem): Tool<WriteInput> {
  return defineTool({
    name: 'write',
    access: 'write',
    description:
      'Creates a file, or overwrites it completely, with the given content; missing parent directories are ' +
      'created. Prefer edit to change part of an existing file. Read a file before overwriting it.',
    input: writeInput,
    async execute({ file_path, content }) {
      const path = await fileSystem.resolveForWrite(file_path, 'write');
      const existing = await fileSystem.stat(path);
      if (existing?.kind === 'directory') {
        throw toolFailure('write', `"${file_path}" is a directory: pass a file path.`, { path: file_path });
      }
      if (existing && existing.kind !== 'file') {
        throw toolFailure(
          'write',
          `"${file_path}" is not a regular file: pass the path of a file to create or overwrite.`,
          { path: file_path },
        );
      }
      await fileSystem.writeText(path, content, 'write');
      const lines = content.length === 0 ? 0 : content.split('\n').length - (content.endsWith('\n') ? 1 : 0);
      const bytes = utf8ByteLength(content);
      const verb = existing ? 'Overwrote' : 'Created';
      return `${verb} ${fileSystem.display(path)} (${lines} lines, ${bytes.toLocaleString('en-US')} bytes).`;
    },
  });
}
