// A regular file swapped for a FIFO between the check and the open must not hang `read` or
// `edit`: the open does not wait for a writer.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestWorkspace, type TestWorkspace, toolContext } from '../../test/helpers/workspace.js';
import { createEditTool, createReadTool } from './workspace-tools.js';

const CALLS = 1_000;

/** Swaps `f.txt` (a regular file) and `fifo` (a FIFO) until killed. */
const SWAPPER = `
const { renameSync } = require('node:fs');
process.chdir(process.argv[1]);
process.stdout.write('ready\\n');
for (;;) {
  try {
    renameSync('f.txt', 'tmp');
    renameSync('fifo', 'f.txt');
    renameSync('f.txt', 'fifo');
    renameSync('tmp', 'f.txt');
  } catch {}
}`;

let ws: TestWorkspace;
let swapper: ChildProcess | undefined;
beforeEach(async () => {
  ws = await createTestWorkspace({ 'f.txt': 'hello\n' });
  execFileSync('mkfifo', [join(ws.root, 'fifo')]);
});
afterEach(async () => {
  swapper?.kill('SIGKILL');
  swapper = undefined;
  await ws.cleanup();
});

function startSwapper(root: string): Promise<void> {
  const child = spawn(process.execPath, ['-e', SWAPPER, root], { stdio: ['ignore', 'pipe', 'inherit'] });
  swapper = child;
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.stdout?.once('data', () => resolve());
  });
}

describe('a file swapped for a FIFO', () => {
  it(`never hangs read or edit (${CALLS} calls each)`, async () => {
    const read = createReadTool({ root: ws.root });
    const edit = createEditTool({ root: ws.root });
    await startSwapper(ws.root);
    let finished = 0;
    for (let call = 0; call < CALLS; call++) {
      await Promise.allSettled([
        read.execute({ file_path: 'f.txt' } as never, toolContext()),
        edit.execute({ file_path: 'f.txt', old_string: 'absent', new_string: 'x' } as never, toolContext()),
      ]);
      finished++;
    }
    expect(finished).toBe(CALLS);
  }, 60_000);
});
