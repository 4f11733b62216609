import type { GrepFileResult, GrepQuery } from '@troupe/core/workspace';
import { beforeAll, describe, expect, it } from 'vitest';
import { toolContext, useTestWorkspace } from '../../test/helpers/workspace.js';
import { isRipgrepAvailable, ripgrepEngine } from './grep-ripgrep.js';
import { scanEngine } from './grep-scan.js';
import { createGrepTool } from './workspace-tools.js';

/** ~100 KB of text: lines cross the 64 KiB read chunk, with matches right around it. */
function bigFile(): string {
  const lines: string[] = [];
  for (let index = 1; index <= 2_000; index++) {
    lines.push(
      index % 97 === 0 || index === 1_310 || index === 1_311
        ? `needle ${index} foo`
        : `hay ${index} ${'.'.repeat(40)}`,
    );
  }
  return lines.join('\n');
}

const ws = useTestWorkspace(
  {
    'src/a.ts': 'import foo from "x";\nconst Foo = 1;\n// TODO: foo bar\nfoo();\n',
    'src/b.js': 'no match here\nfoobar\n\n\nfoo at the end',
    'src/nested/deep.ts': 'x\nx\nfoo\nx\nx\nx\nfoo\nx\n',
    'src/crlf.ts': 'foo\r\nbar foo\r\nbaz\r\n',
    'src/unicode.md': 'café foo\nnaïve Foo\nΣίσυφος foo\n',
    'src/empty.ts': '',
    'big/log.txt': bigFile(),
    'docs/readme.md': '# Foo\nfoo in docs\n',
    '.hidden/secret.ts': 'foo hidden\n',
    '.git/config': 'foo in git\n',
    'node_modules/pkg/index.js': 'foo in node_modules\n',
    'bin/early.bin': new Uint8Array([...Buffer.from('foo\n'), 0, ...Buffer.from('foo\n')]),
    'bin/late.bin': new Uint8Array([...Buffer.from('foo\n'.repeat(30_000)), 0, ...Buffer.from('foo\n')]),
  },
  { perFile: true },
);
beforeAll(async () => {
  await ws.link('src/link.ts', 'a.ts');
});

function query(overrides: Partial<GrepQuery>): GrepQuery {
  const targetRelative = overrides.targetRelative ?? '.';
  return {
    root: ws.root,
    target: targetRelative === '.' ? ws.root : `${ws.root}/${targetRelative}`,
    targetRelative,
    targetIsFile: false,
    pattern: 'foo',
    ignoreCase: false,
    mode: 'content',
    before: 0,
    after: 0,
    ignoreDirectories: ['.git', 'node_modules'],
    patternTimeoutMs: 5_000,
    maxLinesPerFile: 10_000,
    signal: new AbortController().signal,
    ...overrides,
  };
}

async function collect(engine: typeof scanEngine, search: GrepQuery): Promise<GrepFileResult[]> {
  const results: GrepFileResult[] = [];
  await engine(search, (result) => {
    results.push(result);
    return true;
  });
  return results;
}

const cases: Record<string, Partial<GrepQuery>> = {
  'content, whole tree': {},
  'content, case-insensitive': { ignoreCase: true, pattern: 'foo' },
  'content, anchors': { pattern: '^foo|foo$' },
  'content, word boundary and alternation': { pattern: '\\bfoo\\b|TODO' },
  'content, context -C 2': { before: 2, after: 2 },
  'content, context -A 1 across the chunk boundary': { pattern: 'needle', after: 1, targetRelative: 'big' },
  'content, context -B 3': { before: 3, pattern: 'needle 13' },
  'content, unicode': { pattern: 'ί.υφος|café', ignoreCase: true },
  'files, whole tree': { mode: 'files_with_matches' },
  'count, whole tree': { mode: 'count' },
  'count, glob by name': { mode: 'count', glob: '*.ts' },
  'count, glob with braces': { mode: 'count', glob: '*.{js,md}' },
  'count, excluding glob': { mode: 'count', glob: '!*.ts' },
  'count, glob anchored at the root': { mode: 'count', glob: 'src/*.ts' },
  'count, glob with a globstar': { mode: 'count', glob: 'src/**/*.ts' },
  'count, sub-directory': { mode: 'count', targetRelative: 'src' },
  'count, sub-directory with an anchored glob': {
    mode: 'count',
    targetRelative: 'src',
    glob: 'src/nested/*.ts',
  },
  'count, an explicit ignored directory': { mode: 'count', targetRelative: 'node_modules/pkg' },
  'count, one file': { mode: 'count', targetRelative: 'src/a.ts', targetIsFile: true },
  'content, one binary file': { targetRelative: 'bin/late.bin', targetIsFile: true },
  'files, no match': { mode: 'files_with_matches', pattern: 'absent-everywhere' },
};

describe('grep engines', () => {
  it('ripgrep is installed (apt-get install ripgrep) so that both engines are compared', async () => {
    expect(await isRipgrepAvailable('rg')).toBe(true);
  });

  for (const [name, overrides] of Object.entries(cases)) {
    it(`ripgrep and the JavaScript scan agree: ${name}`, async () => {
      const search = query(overrides);
      const fromRipgrep = await collect(ripgrepEngine('rg'), search);
      const fromScan = await collect(scanEngine, search);
      expect(fromScan).toEqual(fromRipgrep);
      if (overrides.pattern !== 'absent-everywhere' && !overrides.targetRelative?.endsWith('.bin')) {
        expect(fromScan.length).toBeGreaterThan(0);
      }
    });
  }

  it('skip binary files, symbolic links, .git and node_modules, and include dot files', async () => {
    const paths = (await collect(scanEngine, query({ mode: 'files_with_matches' }))).map(
      (result) => result.path,
    );
    expect(paths).toEqual([
      '.hidden/secret.ts',
      'big/log.txt',
      'docs/readme.md',
      'src/a.ts',
      'src/b.js',
      'src/crlf.ts',
      'src/nested/deep.ts',
      'src/unicode.md',
    ]);
  });

  it('merge overlapping context into one run of lines', async () => {
    const [result] = await collect(scanEngine, query({ targetRelative: 'src/nested', before: 2, after: 2 }));
    expect(result!.lines.map((line) => `${line.line}${line.match ? ':' : '-'}`)).toEqual([
      '1-',
      '2-',
      '3:',
      '4-',
      '5-',
      '6-',
      '7:',
      '8-',
    ]);
  });
});

describe('grep tool', () => {
  const run = (input: Record<string, unknown>, ripgrep: string | false = 'rg', extra = {}) =>
    createGrepTool({ root: ws.root, ripgrep, ...extra }).execute(input as never, toolContext());

  it('lists matching files by default', async () => {
    expect(await run({ pattern: 'foo', path: 'src', glob: '*.ts' })).toBe(
      'Found 3 files\nsrc/a.ts\nsrc/crlf.ts\nsrc/nested/deep.ts',
    );
  });

  it('shows lines with numbers and context separators in content mode', async () => {
    const text = await run({ pattern: 'foo', path: 'src/nested', output_mode: 'content', '-A': 1 });
    expect(text).toBe(
      'src/nested/deep.ts:3:foo\nsrc/nested/deep.ts-4-x\n--\nsrc/nested/deep.ts:7:foo\nsrc/nested/deep.ts-8-x',
    );
    const plain = await run({ pattern: 'foo$', path: 'src/crlf.ts', output_mode: 'content', '-n': false });
    expect(plain).toBe('No matches found.');
    expect(await run({ pattern: 'foo\\r?$', path: 'src/crlf.ts', output_mode: 'content', '-n': false })).toBe(
      'src/crlf.ts:foo\nsrc/crlf.ts:bar foo',
    );
  });

  it('counts matching lines per file with a total', async () => {
    expect(await run({ pattern: 'foo', path: 'src', output_mode: 'count', '-i': true, glob: '*.md' })).toBe(
      'src/unicode.md:3\n\nTotal: 3 matching lines in 1 files.',
    );
  });

  it('gives the same text with ripgrep and with the JavaScript search', async () => {
    for (const input of [
      { pattern: 'foo', output_mode: 'content', '-C': 1 },
      { pattern: 'needle', output_mode: 'count' },
      { pattern: 'foo', glob: '!*.ts' },
    ]) {
      expect(await run(input, false)).toBe(await run(input, 'rg'));
    }
  });

  it('stops at head_limit and truncates long output with a note', async () => {
    const limited = await run({ pattern: 'needle', output_mode: 'content', head_limit: 2 });
    expect(limited).toBe(
      'big/log.txt:97:needle 97 foo\nbig/log.txt:194:needle 194 foo\n\n[Stopped at head_limit 2: more results may follow.]',
    );
    const truncated = String(
      await run({ pattern: 'hay', output_mode: 'content' }, 'rg', { maxOutputChars: 500 }),
    );
    expect(truncated.length).toBeLessThan(700);
    expect(truncated).toMatch(/\[Output truncated at 500 characters: more results follow\./);
  });

  it('falls back to JavaScript for patterns ripgrep refuses, and without ripgrep', async () => {
    expect(await run({ pattern: 'foo(?=bar)', output_mode: 'content' })).toBe('src/b.js:2:foobar');
    expect(await run({ pattern: 'foo(?=bar)', output_mode: 'content' }, '/nonexistent/rg')).toBe(
      'src/b.js:2:foobar',
    );
  });

  it('uses ripgrep for its own syntax, and names the pattern when neither engine accepts it', async () => {
    expect(await run({ pattern: '(?i)FOOBAR', output_mode: 'files_with_matches' })).toBe(
      'Found 1 file\nsrc/b.js',
    );
    await expect(run({ pattern: '(?i)FOOBAR' }, false)).rejects.toThrow(
      'Invalid regular expression "(?i)FOOBAR"',
    );
    await expect(run({ pattern: 'foo(' })).rejects.toThrow('Invalid regular expression "foo("');
  });

  it('stops when cancelled', async () => {
    const controller = new AbortController();
    controller.abort(new Error('cancelled'));
    const grep = createGrepTool({ root: ws.root, ripgrep: false });
    await expect(grep.execute({ pattern: 'foo' }, toolContext(controller.signal))).rejects.toThrow(
      'cancelled',
    );
  });
});
