import { constants } from 'node:fs';
import { mkdir, open, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { defineTool, type Tool } from '@troupe/core';
import * as v from 'valibot';
import {
  type NodeToolsContext,
  type NodeToolsOptions,
  resolveNodeToolsOptions,
} from './node-tools-options.js';
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
 * Writes `content` to an already-resolved real path, creating parent directories, without ever
 * following a symbolic link at the last step (O_NOFOLLOW): a link swapped in after the path was
 * checked makes the write fail rather than escape.
 */
export async function writeConfined(realPath: string, content: string): Promise<void> {
  await mkdir(dirname(realPath), { recursive: true });
  const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW;
  const handle = await open(realPath, flags, 0o666);
  try {
    await handle.writeFile(content, 'utf8');
  } finally {
    await handle.close();
  }
}

/**
 * The `write` tool (access `write`): creates or overwrites a file with the given content,
 * creating parent directories. The path, through any symbolic link, must stay in the workspace.
 */
export function createWriteTool(options: NodeToolsOptions | NodeToolsContext): Tool<WriteInput> {
  const context = resolveNodeToolsOptions(options);
  const { workspace } = context;
  return defineTool({
    name: 'write',
    access: 'write',
    description:
      'Creates a file, or overwrites it completely, with the given content; missing parent directories are ' +
      'created. Prefer edit to change part of an existing file. Read a file before overwriting it.',
    input: writeInput,
    async execute({ file_path, content }) {
      const path = await workspace.resolveForWrite(file_path, 'write');
      const existing = await stat(path).catch(() => undefined);
      if (existing?.isDirectory()) {
        throw toolFailure('write', `"${file_path}" is a directory: pass a file path.`, { path: file_path });
      }
      await writeConfined(path, content);
      const lines = content.length === 0 ? 0 : content.split('\n').length - (content.endsWith('\n') ? 1 : 0);
      const bytes = Buffer.byteLength(content, 'utf8');
      const verb = existing ? 'Overwrote' : 'Created';
      return `${verb} ${workspace.display(path)} (${lines} lines, ${bytes.toLocaleString('en-US')} bytes).`;
    },
  });
}
