// @troupe/node as a user meets it: packed with pnpm, installed with npm into an empty app outside
// the workspace. The built-in agents must load from there (issue #22), not from the repository.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const pnpm = ['-y', 'pnpm@10.34.9'];
let work: string;
let app: string;

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'troupe-installed-'));
  const tarballs = join(work, 'tarballs');
  for (const name of ['core', 'node'])
    execFileSync('npx', [...pnpm, 'pack', '--pack-destination', tarballs], {
      cwd: join(root, 'packages', name),
      stdio: 'pipe',
    });
  const tarball = (prefix: string) =>
    join(tarballs, readdirSync(tarballs).find((f) => f.startsWith(prefix))!);
  app = join(work, 'app');
  mkdirSync(app);
  writeFileSync(
    join(app, 'package.json'),
    JSON.stringify({
      name: 'someone-elses-app',
      private: true,
      type: 'module',
      dependencies: {
        '@troupe/core': `file:${tarball('troupe-core-')}`,
        '@troupe/node': `file:${tarball('troupe-node-')}`,
      },
    }),
  );
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'], {
    cwd: app,
    stdio: 'pipe',
  });
}, 240_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('@troupe/node installed from its tarball into an app outside the workspace', () => {
  it('finds the built-in agents (explore among them) with no agents folder around', () => {
    writeFileSync(
      join(app, 'list.mjs'),
      `import { loadAgentDirectories } from '@troupe/node';
const registry = await loadAgentDirectories({ cwd: process.cwd(), home: process.cwd() });
console.log(JSON.stringify({ names: registry.names(), problems: registry.problems().map((p) => p.message) }));`,
    );
    const out = JSON.parse(execFileSync('node', ['list.mjs'], { cwd: app, encoding: 'utf8' }));
    expect(out).toEqual({
      names: ['code-reviewer', 'codebase-investigator', 'explore', 'general-purpose', 'plan'],
      problems: [],
    });
  });
});
