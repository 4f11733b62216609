import type { Tool, ToolContext } from '@troupe/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createOpfsTools, type OpfsWorkspace, openOpfsWorkspace } from '../src/index.js';

// Runs in real Chromium against the real Origin Private File System.
let workspace: OpfsWorkspace;
let tools: Map<string, Tool>;
let folder: string;
const context: ToolContext = {
  signal: new AbortController().signal,
  taskId: 't1',
  agent: 'test',
  toolUseId: 'toolu_1',
};

async function call(name: string, input: unknown): Promise<string> {
  return String(await tools.get(name)!.execute(input as never, context));
}

beforeEach(async () => {
  folder = `test-${crypto.randomUUID()}`;
  workspace = await openOpfsWorkspace(`${folder}/workspace`);
  tools = new Map(createOpfsTools(workspace).map((tool) => [tool.name, tool]));
  await workspace.writeFile(['src', 'auth.js'], 'export function login(user) {\n  return check(user);\n}\n');
  await workspace.writeFile(['src', 'util', 'check.ts'], 'export const check = () => true; // TODO\n');
  await workspace.writeFile(['README.md'], '# demo\nlogin lives in src/auth.js\n');
  // A sibling folder outside the workspace that no path may reach.
  const outside = await openOpfsWorkspace(`${folder}/secret`);
  await outside.writeFile(['key.txt'], 'sk-do-not-read');
});

afterEach(async () => {
  await (await navigator.storage.getDirectory()).removeEntry(folder, { recursive: true });
});

describe('OPFS tools', () => {
  it('have the Node tools names and access classes', () => {
    expect([...tools.values()].map((tool) => [tool.name, tool.access])).toEqual([
      ['read', 'read'],
      ['glob', 'read'],
      ['grep', 'read'],
      ['ls', 'read'],
      ['write', 'write'],
      ['edit', 'write'],
    ]);
  });

  it('read numbers lines and pages with offset and limit', async () => {
    expect(await call('read', { file_path: 'src/auth.js' })).toBe(
      '     1\texport function login(user) {\n     2\t  return check(user);\n     3\t}',
    );
    const part = await call('read', { file_path: '/src/auth.js', offset: 2, limit: 1 });
    expect(part).toContain('     2\t  return check(user);');
    expect(part).toContain('read again with offset 3');
    await expect(call('read', { file_path: 'src' })).rejects.toThrow(/is a directory/);
    await expect(call('read', { file_path: 'nope.txt' })).rejects.toThrow(/does not exist/);
  });

  it('never leaves the workspace folder', async () => {
    for (const path of ['../secret/key.txt', 'src/../../secret/key.txt', '/../secret/key.txt']) {
      await expect(call('read', { file_path: path })).rejects.toThrow(/outside the workspace/);
      await expect(call('write', { file_path: path, content: 'x' })).rejects.toThrow(/outside the workspace/);
    }
    // The pattern check is core's, as in Node: also through a brace expansion.
    for (const pattern of ['../**/*', '/**/*', '{..,src}/*', '..{/secret,}/*']) {
      await expect(call('glob', { pattern })).rejects.toThrow(/reaches outside the workspace root/);
    }
    await expect(call('grep', { pattern: 'sk', glob: '../secret/*' })).rejects.toThrow(/reaches outside/);
    await expect(call('ls', { path: '..' })).rejects.toThrow(/outside the workspace/);
    expect(await call('grep', { pattern: 'sk-do-not-read' })).toBe('No matches found.');
  });

  it('write creates folders, edit replaces a unique string', async () => {
    expect(await call('write', { file_path: 'docs/notes.md', content: 'one\ntwo\n' })).toBe(
      'Created docs/notes.md (2 lines, 8 bytes).',
    );
    expect(
      await call('edit', { file_path: 'docs/notes.md', old_string: 'two', new_string: 'three' }),
    ).toContain('replaced 1 occurrence');
    expect(await call('read', { file_path: 'docs/notes.md' })).toContain('three');
    await workspace.writeFile(['twice.txt'], 'a a');
    await expect(call('edit', { file_path: 'twice.txt', old_string: 'a', new_string: 'b' })).rejects.toThrow(
      /appears 2 times/,
    );
    expect(
      await call('edit', { file_path: 'twice.txt', old_string: 'a', new_string: 'b', replace_all: true }),
    ).toContain('2 occurrences');
  });

  it('ls, glob and grep find files and contents', async () => {
    expect(await call('ls', {})).toBe('./ (1 directories, 1 files)\nsrc/\nREADME.md  (34 B)');
    expect((await call('glob', { pattern: '**/*.ts' })).split('\n')).toEqual(['src/util/check.ts']);
    // A glob pattern is relative to the search directory, as in Node (before, OPFS matched a
    // pattern without "/" at any depth, like grep's glob filter).
    expect(await call('glob', { pattern: '*.{js,md}' })).toBe('README.md');
    expect((await call('glob', { pattern: '**/*.{js,md}' })).split('\n').sort()).toEqual([
      'README.md',
      'src/auth.js',
    ]);
    expect(await call('glob', { pattern: '*.ts', path: 'src/util' })).toBe('src/util/check.ts');
    expect(await call('grep', { pattern: 'login' })).toBe('Found 2 files\nREADME.md\nsrc/auth.js');
    expect(await call('grep', { pattern: 'check\\(', output_mode: 'content', glob: '*.js' })).toBe(
      'src/auth.js:2:  return check(user);',
    );
    expect(await call('grep', { pattern: 'todo', '-i': true, output_mode: 'count' })).toContain(
      'src/util/check.ts:1',
    );
    await expect(call('grep', { pattern: '(' })).rejects.toThrow(/Invalid regular expression/);
  });

  it('give the Node tools output: cut lines, binary files, edit snippets, grep context', async () => {
    await workspace.writeFile(['long.txt'], `${'x'.repeat(2_010)}\n`);
    expect(await call('read', { file_path: 'long.txt' })).toBe(
      `     1\t${'x'.repeat(2_000)}… [line cut: 10 more characters]`,
    );
    await workspace.writeFile(['blob.bin'], 'a\0b');
    await expect(call('read', { file_path: 'blob.bin' })).rejects.toThrow(
      '"blob.bin" is a binary file (3 bytes; it contains NUL bytes): read only shows text files.',
    );
    await expect(call('edit', { file_path: 'blob.bin', old_string: 'a', new_string: 'b' })).rejects.toThrow(
      /is a binary file/,
    );
    expect(
      await call('edit', { file_path: 'src/auth.js', old_string: 'check(user)', new_string: 'verify(user)' }),
    ).toBe(
      'Edited src/auth.js: replaced 1 occurrence.\n     1\texport function login(user) {\n     2\t  return verify(user);\n     3\t}',
    );
    await workspace.writeFile(['ctx.txt'], 'foo\nx\ny\nz\nfoo\nw\n');
    expect(await call('grep', { pattern: 'foo', path: 'ctx.txt', output_mode: 'content', '-A': 1 })).toBe(
      'ctx.txt:1:foo\nctx.txt-2-x\n--\nctx.txt:5:foo\nctx.txt-6-w',
    );
    expect(await call('grep', { pattern: 'o', head_limit: 1 })).toBe(
      'Found 1+ file\nREADME.md\n\n[Stopped at head_limit 1: more results may follow.]',
    );
    await expect(
      call('edit', { file_path: 'missing.txt', old_string: 'a', new_string: 'b' }),
    ).rejects.toThrow(/does not exist in the workspace/);
  });
});
