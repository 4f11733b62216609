import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { toolContext, useTestWorkspace } from '../../test/helpers/workspace.js';
import { createEditTool } from './workspace-tools.js';

const ws = useTestWorkspace({
  'code.ts': 'const a = 1;\nconst b = 2;\nconst a2 = 1;\n',
  'crlf.txt': 'one\r\ntwo\r\nthree\r\n',
  'bin.dat': new Uint8Array([0, 1, 2]),
});

const content = (path: string) => readFile(join(ws.root, path), 'utf8');

describe('edit', () => {
  it('replaces a unique string and shows the edited lines', async () => {
    const edit = createEditTool({ root: ws.root });
    const text = await edit.execute(
      { file_path: 'code.ts', old_string: 'const b = 2;', new_string: 'const b = 3;' },
      toolContext(),
    );
    expect(text).toBe(
      'Edited code.ts: replaced 1 occurrence.\n     1\tconst a = 1;\n     2\tconst b = 3;\n     3\tconst a2 = 1;',
    );
    expect(await content('code.ts')).toBe('const a = 1;\nconst b = 3;\nconst a2 = 1;\n');
  });

  it('keeps $ patterns in the new string literal', async () => {
    const edit = createEditTool({ root: ws.root });
    await edit.execute(
      { file_path: 'code.ts', old_string: 'b = 2', new_string: "b = '$&$1$$'" },
      toolContext(),
    );
    expect(await content('code.ts')).toContain("const b = '$&$1$$';");
  });

  it('refuses an ambiguous string unless replace_all', async () => {
    const edit = createEditTool({ root: ws.root });
    await expect(
      edit.execute({ file_path: 'code.ts', old_string: '= 1;', new_string: '= 9;' }, toolContext()),
    ).rejects.toThrow(
      'old_string appears 2 times in "code.ts". Include more surrounding lines to make it unique, or set replace_all',
    );
    expect(await content('code.ts')).toBe('const a = 1;\nconst b = 2;\nconst a2 = 1;\n');
    const text = await edit.execute(
      { file_path: 'code.ts', old_string: '= 1;', new_string: '= 9;', replace_all: true },
      toolContext(),
    );
    expect(text).toMatch(/^Edited code.ts: replaced 2 occurrences\./);
    expect(await content('code.ts')).toBe('const a = 9;\nconst b = 2;\nconst a2 = 9;\n');
  });

  it('fails clearly when the string is missing, unchanged, or the file is missing or binary', async () => {
    const edit = createEditTool({ root: ws.root });
    await expect(
      edit.execute({ file_path: 'code.ts', old_string: 'const c', new_string: 'x' }, toolContext()),
    ).rejects.toThrow('old_string was not found in "code.ts". It must match the file exactly');
    await expect(
      edit.execute({ file_path: 'code.ts', old_string: 'a', new_string: 'a' }, toolContext()),
    ).rejects.toThrow('old_string and new_string are identical');
    await expect(
      edit.execute({ file_path: 'none.ts', old_string: 'a', new_string: 'b' }, toolContext()),
    ).rejects.toThrow(`"none.ts" does not exist in the workspace "${ws.root}".`);
    await expect(
      edit.execute({ file_path: 'bin.dat', old_string: 'a', new_string: 'b' }, toolContext()),
    ).rejects.toThrow('"bin.dat" is a binary file');
  });

  it('matches \\n strings against a file with \\r\\n line endings', async () => {
    const edit = createEditTool({ root: ws.root });
    await edit.execute(
      { file_path: 'crlf.txt', old_string: 'one\ntwo', new_string: 'uno\ndos' },
      toolContext(),
    );
    expect(await content('crlf.txt')).toBe('uno\r\ndos\r\nthree\r\n');
  });

  it('creates a new file from an empty old_string, but never overwrites one', async () => {
    const edit = createEditTool({ root: ws.root });
    expect(
      await edit.execute({ file_path: 'new/file.ts', old_string: '', new_string: 'x\n' }, toolContext()),
    ).toBe('Created new/file.ts (2 lines).');
    expect(await content('new/file.ts')).toBe('x\n');
    await expect(
      edit.execute({ file_path: 'code.ts', old_string: '', new_string: 'x' }, toolContext()),
    ).rejects.toThrow('"code.ts" already exists');
  });

  it('is a write tool', () => {
    expect(createEditTool({ root: ws.root }).access).toBe('write');
  });
});
