#!/usr/bin/env node
// The test suite needs Debian packages besides Node:
// - ripgrep: the grep tool's fast path, compared against its JavaScript fallback;
// - tmux: the CLI's real-terminal tests;
// - chromium: the browser package's tests and the web app's end-to-end tests (driven by Playwright);
// - postgresql: the Postgres store and the DBOS cluster tests (a throwaway cluster per run).
// Installs what is missing with apt-get when running as root; otherwise says exactly what to
// install and fails.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';

const has = (command) => spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
const hasPostgresServer = () => {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return has('initdb');
  return readdirSync(root).some((version) => existsSync(`${root}/${version}/bin/initdb`));
};

const needed = [
  ['ripgrep', () => has('rg')],
  ['tmux', () => has('tmux')],
  ['chromium', () => has('chromium')],
  ['postgresql', hasPostgresServer],
];
const missing = needed.filter(([, present]) => !present()).map(([pkg]) => pkg);
if (missing.length === 0) process.exit(0);

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
if (isRoot && has('apt-get')) {
  console.log(`Installing ${missing.join(', ')} with apt-get (needed by the tests)...`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
  execFileSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...missing], {
    stdio: 'inherit',
    env,
  });
  process.exit(0);
}
console.error(
  `The tests need ${missing.join(', ')}. Install ${missing.length > 1 ? 'them' : 'it'} first, e.g.: sudo apt-get install ${missing.join(' ')}`,
);
process.exit(1);
