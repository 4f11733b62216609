import { utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { toolContext, useTestWorkspace } from '../../test/helpers/workspace.js';
import { createGlobTool } from './workspace-tools.js';

const ws = useTestWorkspace({
  'src/a.ts': '',
  'src/b.ts': '',
  'src/deep/c.ts': '',
  'src/d.js': '',
  '.config/e.ts': '',
  'node_modules/pkg/f.ts': '',
  '.git/g.ts': '',
});
beforeEach(async () => {
  const at = (path: string, seconds: number) => utimes(join(ws.root, path), seconds, seconds);
  await at('src/a.ts', 1_000);
  await at('src/b.ts', 3_000);
  await at('src/deep/c.ts', 2_000);
  await at('.config/e.ts', 500);
});

describe('glob', () => {
  it('lists matching files newest first, with dot files, without .git and node_modules', async () => {
    const glob = createGlobTool({ root: ws.root });
    expect(await glob.execute({ pattern: '**/*.ts' }, toolContext())).toBe(
      'src/b.ts\nsrc/deep/c.ts\nsrc/a.ts\n.config/e.ts',
    );
  });

  it('sorts by path when asked', async () => {
    const glob = createGlobTool({ root: ws.root, globSort: 'name' });
    expect(await glob.execute({ pattern: '**/*.ts' }, toolContext())).toBe(
      '.config/e.ts\nsrc/a.ts\nsrc/b.ts\nsrc/deep/c.ts',
    );
  });

  it('searches under a path, reporting paths from the root', async () => {
    const glob = createGlobTool({ root: ws.root, globSort: 'name' });
    expect(await glob.execute({ pattern: '*.{ts,js}', path: 'src' }, toolContext())).toBe(
      'src/a.ts\nsrc/b.ts\nsrc/d.js',
    );
  });

  it('enters node_modules when the pattern names it', async () => {
    const glob = createGlobTool({ root: ws.root });
    expect(await glob.execute({ pattern: 'node_modules/**/*.ts' }, toolContext())).toBe(
      'node_modules/pkg/f.ts',
    );
  });

  it('caps the list and says how many were left out', async () => {
    const glob = createGlobTool({ root: ws.root, globMaxResults: 2 });
    const text = await glob.execute({ pattern: '**/*' }, toolContext());
    expect(text).toBe(
      'src/d.js\nsrc/b.ts\n\n[3 more files not shown (5 in all): use a more specific pattern or path.]',
    );
  });

  it('says when nothing matches, and refuses escaping patterns and file paths', async () => {
    const glob = createGlobTool({ root: ws.root });
    expect(await glob.execute({ pattern: '**/*.py' }, toolContext())).toBe('No files match "**/*.py" in ..');
    await expect(glob.execute({ pattern: '../**/*' }, toolContext())).rejects.toThrow(
      /reaches outside the workspace root/,
    );
    await expect(glob.execute({ pattern: '/etc/*' }, toolContext())).rejects.toThrow(/reaches outside/);
    await expect(glob.execute({ pattern: '*', path: 'src/a.ts' }, toolContext())).rejects.toThrow(
      '"src/a.ts" is not a directory',
    );
  });
});
