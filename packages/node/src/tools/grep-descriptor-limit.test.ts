// grep opens the files it hands to ripgrep itself (up to 1,024 per ripgrep process): under a low
// descriptor limit it must still find every file (smaller batches), never crash the process on a
// failed spawn nor leave files out unsaid.
import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestWorkspace, type TestWorkspace } from '../../test/helpers/workspace.js';

const here = dirname(fileURLToPath(import.meta.url));
const FILES = 400;
let ws: TestWorkspace;
beforeEach(async () => {
  const files: Record<string, string> = {};
  for (let index = 0; index < FILES; index++) files[`f/${String(index).padStart(3, '0')}.txt`] = 'needle\n';
  ws = await createTestWorkspace(files);
});
afterEach(() => ws.cleanup());

describe('grep under a low descriptor limit', () => {
  it('lists every matching file', () => {
    const output = execFileSync(
      'prlimit',
      [
        '--nofile=120:120',
        process.execPath,
        '--conditions=source',
        '--import',
        'tsx',
        join(here, '../../test/helpers/grep-child.ts'),
        ws.root,
        'needle',
      ],
      { cwd: here, encoding: 'utf8' },
    );
    expect(output.split('\n')[0]).toBe(`Found ${FILES} files`);
  });
});
