import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Tool } from '@troupe/core';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  failureOf,
  type TestWorkspace,
  toolContext,
  useTestWorkspace,
} from '../../test/helpers/workspace.js';
import { createNodeTools } from './create-node-tools.js';
import { createWorkspace } from './workspace.js';

const ws = useTestWorkspace({ 'inside.txt': 'inside\n', 'dir/nested.txt': 'nested\n' });
let tools: Record<string, Tool>;

beforeEach(async () => {
  await ws.link('leak.txt', join(ws.outside, 'secret.txt'));
  await ws.link('linkdir', ws.outside);
  await ws.link('dangling.txt', join(ws.outside, 'created-through-link.txt'));
  await ws.link('dangling-dir', join(ws.outside, 'not-yet'));
  await ws.link('good-link.txt', 'inside.txt');
  tools = Object.fromEntries(
    createNodeTools({ root: ws.root, ripgrep: false }).map((tool) => [tool.name, tool]),
  );
});

const run = (name: string, input: Record<string, unknown>) => tools[name]!.execute(input, toolContext());

/** Each file tool with the input that makes it touch `path`. */
const fileTools: Record<string, (path: string) => Record<string, unknown>> = {
  read: (path) => ({ file_path: path }),
  write: (path) => ({ file_path: path, content: 'pwned\n' }),
  edit: (path) => ({ file_path: path, old_string: 'top secret', new_string: 'pwned' }),
  ls: (path) => ({ path }),
  glob: (path) => ({ pattern: '**/*', path }),
  grep: (path) => ({ pattern: 'secret', path }),
};

const escapes: Record<string, (ws: TestWorkspace, tool: string) => string> = {
  'an absolute path outside': (w, tool) =>
    ['ls', 'glob', 'grep'].includes(tool) ? w.outside : join(w.outside, 'secret.txt'),
  'a .. escape': (_, tool) =>
    ['ls', 'glob', 'grep'].includes(tool) ? '../outside' : '../outside/secret.txt',
  'a .. escape that re-enters by name': () => `dir/../../${join('workspace', '..', 'outside', 'secret.txt')}`,
  'a symbolic link pointing outside': (_, tool) =>
    ['ls', 'glob', 'grep'].includes(tool) ? 'linkdir' : 'leak.txt',
  'a symlinked parent directory': () => 'linkdir/secret.txt',
  'a dangling symbolic link pointing outside': (_, tool) =>
    ['ls', 'glob', 'grep'].includes(tool) ? 'dangling-dir' : 'dangling.txt',
  'a new file under a dangling directory link': () => 'dangling-dir/new.txt',
};

describe('workspace confinement', () => {
  for (const [tool, input] of Object.entries(fileTools)) {
    for (const [name, pathOf] of Object.entries(escapes)) {
      it(`${tool} refuses ${name}, naming the path and the root`, async () => {
        const path = pathOf(ws, tool);
        const error = await failureOf(() => run(tool, input(path)));
        expect(error, `${tool} accepted ${path}`).toBeInstanceOf(Error);
        expect(error!.message).toContain(`"${path}"`);
        expect(error!.message).toContain(ws.root);
        expect(error!.message).toMatch(/outside the workspace root/);
        expect(await readFile(join(ws.outside, 'secret.txt'), 'utf8')).toBe('top secret\n');
        await expect(stat(join(ws.outside, 'created-through-link.txt'))).rejects.toThrow();
        await expect(stat(join(ws.outside, 'not-yet'))).rejects.toThrow();
      });
    }
  }

  it('follows symbolic links that stay inside the workspace', async () => {
    expect(await run('read', { file_path: 'good-link.txt' })).toContain('inside');
    await run('write', { file_path: 'good-link.txt', content: 'rewritten\n' });
    expect(await readFile(join(ws.root, 'inside.txt'), 'utf8')).toBe('rewritten\n');
  });

  it('accepts absolute paths inside the root', async () => {
    expect(await run('read', { file_path: join(ws.root, 'dir', 'nested.txt') })).toContain('nested');
  });

  it('never lists or searches through links leading out', async () => {
    const listed = String(await run('glob', { pattern: '**/*' }));
    expect(listed).toContain('inside.txt');
    expect(listed).not.toContain('secret');
    expect(await run('grep', { pattern: 'top secret' })).toBe('No matches found.');
  });

  it('works when the root itself is reached through a symbolic link', async () => {
    await ws.link('../root-link', ws.root);
    const linked = createNodeTools({ root: join(ws.base, 'root-link'), ripgrep: false });
    const read = linked.find((tool) => tool.name === 'read')!;
    expect(await read.execute({ file_path: 'inside.txt' }, toolContext())).toContain('inside');
    await expect(read.execute({ file_path: '../outside/secret.txt' }, toolContext())).rejects.toThrow(
      /outside the workspace root/,
    );
  });

  it('refuses a root that is not a directory', () => {
    expect(() => createWorkspace(join(ws.root, 'missing'))).toThrow(/is not an existing directory/);
    expect(() => createWorkspace(join(ws.root, 'inside.txt'))).toThrow(/is not an existing directory/);
  });

  it('refuses empty paths and NUL bytes', async () => {
    const workspace = createWorkspace(ws.root);
    await expect(workspace.resolveExisting('', 'read')).rejects.toThrow(/path is empty/);
    await expect(workspace.resolveForWrite('a\0b', 'write')).rejects.toThrow(/NUL byte/);
  });

  it('refuses symbolic link loops clearly', async () => {
    await ws.link('loop-a', 'loop-b');
    await ws.link('loop-b', 'loop-a');
    await expect(run('write', { file_path: 'loop-a', content: 'x' })).rejects.toThrow(/cannot be resolved/);
  });
});
