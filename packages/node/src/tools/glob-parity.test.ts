import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { createGlobFilter, type GlobFilter } from '@troupe/core/workspace';
import { glob } from 'tinyglobby';
import { describe, expect, it } from 'vitest';
import { useTestWorkspace } from '../../test/helpers/workspace.js';

// OPFS has no tinyglobby: its file system walks folders with core's glob filter. These cases pin
// that the filter selects exactly what tinyglobby (Node's glob) selects, for the requests the
// glob tool and grep's file listing make, so that both tools answer alike over either platform.
const ws = useTestWorkspace(
  {
    'a.ts': '',
    'b.js': '',
    'README.md': '',
    '.env': '',
    'src/a.ts': '',
    'src/b.tsx': '',
    'src/c.test.ts': '',
    'src/deep/d.ts': '',
    'src/deep/e.md': '',
    'src/.hidden/f.ts': '',
    'src/[x]/g.ts': '',
    'src/a.ts.bak/h.ts': '',
    'node_modules/pkg/index.ts': '',
    'src/node_modules/x.ts': '',
    '.git/config': '',
    'docs/guide/intro.md': '',
    'test_1.py': '',
    'lib/test_2.py': '',
  },
  { perFile: true },
);

async function walk(directory: string, at: string, filter: GlobFilter, found: string[]): Promise<void> {
  for (const entry of await readdir(directory, { withFileTypes: true })) {
    const path = at === '' ? entry.name : `${at}/${entry.name}`;
    if (entry.isFile()) {
      if (filter.matches(path)) found.push(path);
    } else if (entry.isDirectory() && !filter.skipsDirectory(path)) {
      await walk(join(directory, entry.name), path, filter, found);
    }
  }
}

const requests: [string, string[], string[]][] = [
  ['every file', ['**/*'], []],
  ['glob tool default ignores', ['**/*.ts'], ['**/.git/**', '**/node_modules/**']],
  ['top level only without a slash', ['*.{ts,js,md}'], []],
  ['braces and a globstar in the middle', ['src/**/*.{ts,tsx}'], ['**/node_modules/**']],
  ['question mark and a class', ['**/test_?.py', '**/[ab].ts'], []],
  ['negated class', ['src/[!a]*.ts*'], []],
  ['dot files by star', ['*', '.*'], []],
  ['escaped brackets in a directory name', ['src/\\[x\\]/**/*'], []],
  [
    'grep listing with a name glob below a prefix',
    ['src/**/*.md'],
    ['src/**/\\.git/**', 'src/**/node_modules/**'],
  ],
  ['grep listing excluding by name', ['**/*'], ['**/.git/**', '**/node_modules/**', '**/*.ts', '**/*.ts/**']],
  ['grep listing excluding a path', ['**/*'], ['**/.git/**', 'src/deep', 'src/deep/**']],
  ['a pattern naming an ignored directory', ['node_modules/**/*.ts'], ['**/.git/**']],
  ['double star at the end', ['docs/**'], []],
];

describe("core's glob filter (OPFS) selects what tinyglobby (Node) selects", () => {
  for (const [name, patterns, ignore] of requests) {
    it(name, async () => {
      const expected = await glob(patterns, {
        cwd: ws.root,
        dot: true,
        onlyFiles: true,
        followSymbolicLinks: false,
        ignore,
      });
      const found: string[] = [];
      await walk(ws.root, '', createGlobFilter(patterns, ignore), found);
      expect(found.sort()).toEqual(expected.sort());
      expect(found.length).toBeGreaterThan(0);
    });
  }
});
