import { describe, expect, it } from 'vitest';
import { toolContext, useTestWorkspace } from '../../test/helpers/workspace.js';
import { createReadTool } from './workspace-tools.js';

const ws = useTestWorkspace();

const lines = (count: number) => Array.from({ length: count }, (_, index) => `line ${index + 1}`).join('\n');

describe('read', () => {
  it('numbers lines like cat -n', async () => {
    await ws.write({ 'a.txt': 'alpha\nbeta\r\n\ngamma' });
    const read = createReadTool({ root: ws.root });
    expect(await read.execute({ file_path: 'a.txt' }, toolContext())).toBe(
      '     1\talpha\n     2\tbeta\n     3\t\n     4\tgamma',
    );
  });

  it('reads a range with offset and limit and says how to continue', async () => {
    await ws.write({ 'long.txt': `${lines(10)}\n` });
    const read = createReadTool({ root: ws.root });
    const text = await read.execute({ file_path: 'long.txt', offset: 4, limit: 3 }, toolContext());
    expect(text).toBe(
      '     4\tline 4\n     5\tline 5\n     6\tline 6\n\n[More lines follow: read again with offset 7 to continue.]',
    );
    expect(await read.execute({ file_path: 'long.txt', offset: 9 }, toolContext())).toBe(
      '     9\tline 9\n    10\tline 10',
    );
  });

  it('applies its default line limit', async () => {
    await ws.write({ 'long.txt': lines(50) });
    const read = createReadTool({ root: ws.root, readDefaultLimit: 20 });
    const text = String(await read.execute({ file_path: 'long.txt' }, toolContext()));
    expect(text).toContain('    20\tline 20');
    expect(text).not.toContain('line 21');
    expect(text).toContain('offset 21');
  });

  it('reads lines across chunk boundaries of a large file', async () => {
    await ws.write({ 'big.txt': lines(30_000) });
    const read = createReadTool({ root: ws.root });
    expect(await read.execute({ file_path: 'big.txt', offset: 29_999, limit: 5 }, toolContext())).toBe(
      ' 29999\tline 29999\n 30000\tline 30000',
    );
  });

  it('fails clearly for an offset past the end, a directory, a missing file and a binary file', async () => {
    await ws.write({
      'short.txt': 'one\ntwo\n',
      'dir/x.txt': 'x',
      'image.png': new Uint8Array([0x89, 0x50, 0, 0, 1]),
    });
    const read = createReadTool({ root: ws.root });
    await expect(read.execute({ file_path: 'short.txt', offset: 5 }, toolContext())).rejects.toThrow(
      '"short.txt" has 2 lines; offset 5 is past its end.',
    );
    await expect(read.execute({ file_path: 'dir' }, toolContext())).rejects.toThrow(/is a directory.*use ls/);
    await expect(read.execute({ file_path: 'nope.txt' }, toolContext())).rejects.toThrow(
      `Path "nope.txt" does not exist in the workspace "${ws.root}".`,
    );
    await expect(read.execute({ file_path: 'image.png' }, toolContext())).rejects.toThrow(
      /"image.png" is a binary file \(5 bytes/,
    );
  });

  it('says when a file is empty', async () => {
    await ws.write({ 'empty.txt': '' });
    const read = createReadTool({ root: ws.root });
    expect(await read.execute({ file_path: 'empty.txt' }, toolContext())).toBe(
      '(The file "empty.txt" is empty.)',
    );
  });

  it('cuts long lines and truncates long output with a note', async () => {
    await ws.write({ 'wide.txt': `${'x'.repeat(50)}\n${lines(400)}` });
    const read = createReadTool({ root: ws.root, maxLineChars: 10, maxOutputChars: 1_000 });
    const text = String(await read.execute({ file_path: 'wide.txt' }, toolContext()));
    expect(text.split('\n')[0]).toBe(`     1\t${'x'.repeat(10)}… [line cut: 40 more characters]`);
    expect(text).toMatch(/\[Output truncated: [\d,]+ of [\d,]+ characters cut\. Read a smaller range/);
    expect(text.length).toBeLessThan(1_200);
  });

  it('is a read tool', () => {
    expect(createReadTool({ root: ws.root }).access).toBe('read');
  });
});
