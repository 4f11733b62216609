// Issue #14, item 10: check-then-use races in the file tools. While a tool runs, its parent
// directory is swapped back and forth for a symbolic link to a folder outside the workspace (as a
// concurrent process could). Between the tool's path check and its open, the swap used to send
// writes and reads outside. The tools now open relative to a directory handle verified once.
import { mkdirSync, readdirSync, renameSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createEditTool, createLsTool, createReadTool, createWriteTool } from '@troupe/node';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSandbox, outcome, type Sandbox, SECRET, toolContext } from './helpers.js';

const TRIES = 1_500;
let sandbox: Sandbox;
beforeEach(async () => {
  sandbox = await createSandbox();
  mkdirSync(join(sandbox.root, 'd'));
  writeFileSync(join(sandbox.root, 'd', 'secret.txt'), 'harmless\n');
  mkdirSync(join(sandbox.root, 'd', 'sub'));
  mkdirSync(join(sandbox.outside, 'sub'));
});
afterEach(() => sandbox.cleanup());

/** Swaps `d` between the real folder and a link to `outside` at every turn of the event loop. */
function startSwapping(): () => void {
  const dir = join(sandbox.root, 'd');
  const parked = join(sandbox.root, 'd.real');
  let linked = false;
  let running = true;
  const swap = () => {
    if (!running) return;
    try {
      if (linked) {
        unlinkSync(dir);
        renameSync(parked, dir);
      } else {
        renameSync(dir, parked);
        symlinkSync(sandbox.outside, dir);
      }
      linked = !linked;
    } catch {
      // A tool call may hold the name for a moment; try again next turn.
    }
    setImmediate(swap);
  };
  setImmediate(swap);
  return () => {
    running = false;
    if (linked) {
      unlinkSync(dir);
      renameSync(parked, dir);
    }
  };
}

function outsideFiles(): string[] {
  return [
    ...readdirSync(sandbox.outside),
    ...readdirSync(join(sandbox.outside, 'sub')).map((name) => `sub/${name}`),
  ].filter((name) => name !== 'secret.txt' && name !== 'sub');
}

describe('a parent directory swapped for a link during the call', () => {
  it('write never creates or changes a file outside', async () => {
    const write = createWriteTool({ root: sandbox.root });
    const stop = startSwapping();
    try {
      for (let index = 0; index < TRIES; index++) {
        await outcome(() => write.execute({ file_path: `d/f${index}.txt`, content: 'x' }, toolContext()));
        await outcome(() =>
          write.execute({ file_path: `d/sub/new/g${index}.txt`, content: 'x' }, toolContext()),
        );
      }
    } finally {
      stop();
    }
    expect(outsideFiles()).toEqual([]);
    expect(readdirSync(sandbox.outside).sort()).toEqual(['secret.txt', 'sub']);
  }, 120_000);

  it('edit never changes a file outside', async () => {
    writeFileSync(join(sandbox.root, 'd', 'secret.txt'), `${SECRET}\n`);
    const edit = createEditTool({ root: sandbox.root });
    const stop = startSwapping();
    try {
      for (let index = 0; index < TRIES; index++) {
        await outcome(() =>
          edit.execute(
            { file_path: 'd/secret.txt', old_string: SECRET, new_string: `${SECRET}-edited` },
            toolContext(),
          ),
        );
      }
    } finally {
      stop();
    }
    const { readFileSync } = await import('node:fs');
    expect(readFileSync(join(sandbox.outside, 'secret.txt'), 'utf8')).toBe(`${SECRET}\n`);
  }, 120_000);

  it('read and ls never return what is outside', async () => {
    writeFileSync(join(sandbox.outside, 'only-outside.txt'), 'x');
    const read = createReadTool({ root: sandbox.root });
    const ls = createLsTool({ root: sandbox.root });
    const stop = startSwapping();
    const leaks: string[] = [];
    try {
      for (let index = 0; index < TRIES; index++) {
        const text = await outcome(() => read.execute({ file_path: 'd/secret.txt' }, toolContext()));
        if (text.includes(SECRET)) leaks.push(`read ${index}`);
        const listing = await outcome(() => ls.execute({ path: 'd' }, toolContext()));
        if (listing.includes('only-outside')) leaks.push(`ls ${index}`);
      }
    } finally {
      stop();
    }
    expect(leaks).toEqual([]);
  }, 120_000);
});

it('the swapping itself is not an error for the tools when nothing is swapped', async () => {
  rmSync(join(sandbox.root, 'd', 'sub'), { recursive: true });
  const write = createWriteTool({ root: sandbox.root });
  expect(
    await outcome(() => write.execute({ file_path: 'd/a/b/c.txt', content: 'x' }, toolContext())),
  ).toMatch(/^Created/);
  const read = createReadTool({ root: sandbox.root });
  expect(await outcome(() => read.execute({ file_path: 'd/a/b/c.txt' }, toolContext()))).toContain('x');
});
