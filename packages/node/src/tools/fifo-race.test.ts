// A regular file swapped for a FIFO between the check and the open must not hang `read` or
// `edit`: the open does not wait for a writer.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSwapper } from '../../test/helpers/swapper.js';
import { createTestWorkspace, type TestWorkspace, toolContext } from '../../test/helpers/workspace.js';
import { createEditTool, createReadTool } from './workspace-tools.js';

const CALLS = 1_000;

let ws: TestWorkspace;
let stopSwapping: (() => void) | undefined;
beforeEach(async () => {
  ws = await createTestWorkspace({ 'f.txt': 'hello\n' });
  execFileSync('mkfifo', [join(ws.root, 'fifo')]);
});
afterEach(async () => {
  stopSwapping?.();
  stopSwapping = undefined;
  await ws.cleanup();
});

describe('a file swapped for a FIFO', () => {
  it(`never hangs read or edit (${CALLS} calls each)`, async () => {
    const read = createReadTool({ root: ws.root });
    const edit = createEditTool({ root: ws.root });
    stopSwapping = await startSwapper(ws.root, 'f.txt', 'fifo');
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
