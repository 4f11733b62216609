import { createGlobTool, createGrepTool } from '@troupe/node';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSandbox, outcome, type Sandbox, SECRET, toolContext } from './helpers.js';

// Issue #14, item 1: grep's `glob` parameter and glob's pattern must not reach files outside the
// workspace, whichever search engine runs and however the pattern is spelled.
let sandbox: Sandbox;
beforeEach(async () => {
  sandbox = await createSandbox({ 'inside.txt': 'harmless\n' });
  await sandbox.link('link_dir', sandbox.outside);
});
afterEach(() => sandbox.cleanup());

const engines = [
  ['JavaScript scanner', false],
  ['ripgrep', 'rg'],
] as const;

describe.each(engines)('grep glob escapes (%s)', (_name, ripgrep) => {
  const grep = () => createGrepTool({ root: sandbox.root, ripgrep });
  const attacks = () => [
    `${sandbox.outside}/secret.txt`,
    '/etc/passwd',
    '../outside/*',
    '../outside/secret.txt',
    'link_dir/*',
    '..{/outside/*,}',
    '!inside.txt',
  ];

  it.each(['T', '(?<=T)OP', 'root'])(
    'never returns a file outside the workspace (pattern %s)',
    async (pattern) => {
      for (const glob of attacks()) {
        for (const output_mode of ['content', 'files_with_matches', 'count'] as const) {
          const text = await outcome(() => grep().execute({ pattern, glob, output_mode }, toolContext()));
          expect(text, `glob ${glob} in ${output_mode} mode`).not.toContain(SECRET);
          expect(text, `glob ${glob} in ${output_mode} mode`).not.toContain('root:x:0');
          // A refusal may quote the glob; a result must not name a file outside.
          if (!text.startsWith('ERROR')) expect(text, `glob ${glob}`).not.toMatch(/secret\.txt|passwd/);
        }
      }
    },
  );

  it('refuses an absolute or parent-relative glob with a clear error', async () => {
    for (const glob of ['/etc/passwd', '../outside/*', '..{/outside/*,}']) {
      const text = await outcome(() => grep().execute({ pattern: 'T', glob }, toolContext()));
      expect(text, glob).toMatch(/^ERROR: .*outside/);
    }
  });
});

describe('glob pattern escapes', () => {
  it.each([
    '..{/outside/*,}',
    '{..,x}/outside/*',
    '.{.,}/outside/*',
    'link_dir/*',
    'link_dir/**',
    `${'/'}**/secret.txt`,
  ])('lists nothing outside the workspace for %s', async (pattern) => {
    const glob = createGlobTool({ root: sandbox.root });
    const text = await outcome(() => glob.execute({ pattern }, toolContext()));
    if (!text.startsWith('ERROR')) expect(text).not.toContain('secret.txt');
    else expect(text).toMatch(/reaches outside the workspace root/);
  });
});
