import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { toolContext, useTestWorkspace } from '../../test/helpers/workspace.js';
import { createWriteTool } from './workspace-tools.js';

const ws = useTestWorkspace({ 'old.txt': 'old\n', 'dir/keep.txt': '' });

describe('write', () => {
  it('creates files with their parent directories', async () => {
    const write = createWriteTool({ root: ws.root });
    expect(await write.execute({ file_path: 'a/b/c.txt', content: 'one\ntwo\n' }, toolContext())).toBe(
      'Created a/b/c.txt (2 lines, 8 bytes).',
    );
    expect(await readFile(join(ws.root, 'a/b/c.txt'), 'utf8')).toBe('one\ntwo\n');
  });

  it('overwrites existing files completely', async () => {
    const write = createWriteTool({ root: ws.root });
    expect(await write.execute({ file_path: join(ws.root, 'old.txt'), content: 'née' }, toolContext())).toBe(
      'Overwrote old.txt (1 lines, 4 bytes).',
    );
    expect(await readFile(join(ws.root, 'old.txt'), 'utf8')).toBe('née');
  });

  it('writes through a dangling link that points inside the workspace', async () => {
    await ws.link('pending.txt', 'made/by-link.txt');
    const write = createWriteTool({ root: ws.root });
    await write.execute({ file_path: 'pending.txt', content: 'via link' }, toolContext());
    expect(await readFile(join(ws.root, 'made/by-link.txt'), 'utf8')).toBe('via link');
  });

  it('refuses to write over a directory', async () => {
    const write = createWriteTool({ root: ws.root });
    await expect(write.execute({ file_path: 'dir', content: 'x' }, toolContext())).rejects.toThrow(
      '"dir" is a directory: pass a file path.',
    );
    expect((await stat(join(ws.root, 'dir'))).isDirectory()).toBe(true);
  });

  it('is a write tool', () => {
    expect(createWriteTool({ root: ws.root }).access).toBe('write');
  });
});
