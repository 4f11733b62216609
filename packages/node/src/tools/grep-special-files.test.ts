// A FIFO in a repository must not hang grep: opening one for reading waits for a writer forever,
// holding one of libuv's four threads (four such calls would stall every file operation of the
// host). Both engines skip anything that is not a regular file, also when it is the search path.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { toolContext, useTestWorkspace } from '../../test/helpers/workspace.js';
import { createGrepTool } from './workspace-tools.js';

const ws = useTestWorkspace({ 'a.txt': 'needle\n' });
beforeEach(async () => {
  execFileSync('mkfifo', [join(ws.root, 'pipe.txt')]);
});

describe.each([
  ['ripgrep', 'rg'],
  ['JavaScript', false],
] as const)('grep and a FIFO (%s engine)', (_name, ripgrep) => {
  it('skips a FIFO given as the search path instead of waiting for a writer', async () => {
    const grep = createGrepTool({ root: ws.root, ripgrep });
    expect(await grep.execute({ pattern: 'needle', path: 'pipe.txt' }, toolContext())).toBe(
      'No matches found.',
    );
  });

  it('searches the regular files of a folder holding a FIFO', async () => {
    const grep = createGrepTool({ root: ws.root, ripgrep });
    expect(await grep.execute({ pattern: 'needle' }, toolContext())).toBe('Found 1 file\na.txt');
  });
});
