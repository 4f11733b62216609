// Issue #21, item 7: while another process swaps a directory of the workspace for a symbolic link
// to a directory outside it, no grep call (either engine, every output mode) reports anything read
// outside. The reproduction that opened the issue leaked in 140 of 600 ripgrep calls (here, before the fix: 18 of 300).
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestWorkspace, type TestWorkspace, toolContext } from '../../test/helpers/workspace.js';
import { createGrepTool } from './workspace-tools.js';

const CALLS = 150;
const FILES = 20;
const SECRET = 'OUTSIDE-SECRET-7f3a';

/** Swaps `sub` (a real directory) and `sub.link` (a link to the secret directory) until killed. */
const SWAPPER = `
const { renameSync } = require('node:fs');
process.chdir(process.argv[1]);
process.stdout.write('ready\\n');
for (;;) {
  try {
    renameSync('sub', 'sub.real');
    renameSync('sub.link', 'sub');
    renameSync('sub', 'sub.link');
    renameSync('sub.real', 'sub');
  } catch {}
}`;

let ws: TestWorkspace;
let swapper: ChildProcess | undefined;

beforeEach(async () => {
  ws = await createTestWorkspace({ 'top.txt': 'needle at the top\n' });
  const secretDirectory = join(ws.outside, 'secrets');
  await mkdir(secretDirectory);
  // The same names on both sides: each file opened is one more chance to be read through the link.
  for (let index = 0; index < FILES; index++) {
    await ws.write({ [`sub/notes-${index}.txt`]: 'needle inside\n' });
    await writeFile(join(secretDirectory, `notes-${index}.txt`), `needle ${SECRET}\n`);
  }
  await writeFile(join(secretDirectory, 'other.txt'), `needle ${SECRET}\n`);
  await symlink(secretDirectory, join(ws.root, 'sub.link'));
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

const engines = [
  ['ripgrep', 'rg'],
  ['JavaScript', false],
] as const;

describe.each(engines)('grep under a directory-for-link swap (%s engine)', (_name, ripgrep) => {
  it(`reads nothing outside the workspace in ${CALLS} calls`, async () => {
    const grep = createGrepTool({ root: ws.root, ripgrep });
    await startSwapper(ws.root);
    let leaks = 0;
    let sawInside = 0;
    const modes = ['content', 'files_with_matches', 'count'] as const;
    for (let call = 0; call < CALLS; call++) {
      const output_mode = modes[call % modes.length]!;
      let text: string;
      try {
        text = String(await grep.execute({ pattern: 'needle', output_mode }, toolContext()));
      } catch (error) {
        text = `ERROR: ${(error as Error).message}`;
      }
      if (text.includes(SECRET) || text.includes('other.txt')) leaks++;
      if (text.includes('top.txt')) sawInside++;
    }
    expect(leaks, `${leaks} of ${CALLS} calls reported content from outside the workspace`).toBe(0);
    expect(sawInside).toBe(CALLS);
  }, 120_000);
});
