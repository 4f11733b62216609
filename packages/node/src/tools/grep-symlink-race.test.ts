import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSwapper } from '../../test/helpers/swapper.js';
import { createTestWorkspace, type TestWorkspace, toolContext } from '../../test/helpers/workspace.js';
import { createGrepTool } from './workspace-tools.js';

const CALLS = 150;
const FILES = 20;
const SECRET = 'OUTSIDE-SECRET-7f3a';

let ws: TestWorkspace;
let stopSwapping: (() => void) | undefined;

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
  stopSwapping?.();
  stopSwapping = undefined;
  await ws.cleanup();
});

const engines = [
  ['ripgrep', 'rg'],
  ['JavaScript', false],
] as const;

describe.each(engines)('grep under a directory-for-link swap (%s engine)', (_name, ripgrep) => {
  it(`reads nothing outside the workspace in ${CALLS} calls`, async () => {
    const grep = createGrepTool({ root: ws.root, ripgrep });
    stopSwapping = await startSwapper(ws.root, 'sub', 'sub.link');
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
