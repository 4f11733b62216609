import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../..', import.meta.url));

it('leaves no troupe-cli-* folder behind once a test file has run', () => {
  const work = mkdtempSync(join(tmpdir(), 'troupe-temp-dir-probe-'));
  try {
    const list = join(work, 'made.txt');
    const run = spawnSync(
      process.execPath,
      [
        'node_modules/vitest/vitest.mjs',
        'run',
        '--project',
        'node',
        'apps/cli/test/fixtures/temp-dirs/probe.test.ts',
      ],
      { cwd: root, env: { ...process.env, TROUPE_TEMP_DIR_PROBE: list }, encoding: 'utf8' },
    );
    expect(run.status, run.stdout + run.stderr).toBe(0);
    const made = readFileSync(list, 'utf8').trim().split('\n');
    expect(made).toHaveLength(2);
    expect(made.every((dir) => dir.includes('troupe-cli-'))).toBe(true);
    expect(made.filter((dir) => existsSync(dir))).toEqual([]);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}, 60_000);
