import { constants } from 'node:fs';
import { stat } from 'node:fs/promises';
import { defineTool, type Tool } from '@troupe/core';
import * as v from 'valibot';
import { confinedFailure, openConfined } from './confined-open.js';
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
 * Writes `content` to an already-resolved real path inside `realRoot`, creating parent directories,
 * through directory handles verified once and without following a symbolic link (see
 * `openConfined`): a link swapped into the path after it was checked makes the write fail
 * (`ConfinementError`) rather than escape.
 */
export async function writeConfined(realPath: string, content: string, realRoot: string): Promise<void> {
  // O_NONBLOCK: a FIFO swapped in after the check fails to open (ENXIO) instead of waiting for a
  // reader; it does nothing to a regular file.
  const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NONBLOCK;
  const handle = await openConfined(realPath, realRoot, flags, { createParents: true });
  try {
    if (!(await handle.stat()).isFile())
      throw new Error(`${realPath} is not a regular file; nothing was written.`);
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
      if (existing && !existing.isFile()) {
        throw toolFailure(
          'write',
          `"${file_path}" is not a regular file: pass the path of a file to create or overwrite.`,
          { path: file_path },
        );
      }
      await writeConfined(path, content, workspace.realRoot).catch(confinedFailure('write'));
      const lines = content.length === 0 ? 0 : content.split('\n').length - (content.endsWith('\n') ? 1 : 0);
      const bytes = Buffer.byteLength(content, 'utf8');
      const verb = existing ? 'Overwrote' : 'Created';
      return `${verb} ${workspace.display(path)} (${lines} lines, ${bytes.toLocaleString('en-US')} bytes).`;
    },
  });
}
