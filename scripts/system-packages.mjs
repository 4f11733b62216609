#!/usr/bin/env node
// The test suite needs two Debian packages besides Node: ripgrep (the grep tool's fast path, compared
// against its JavaScript fallback) and tmux (the CLI's real-terminal tests). Installs them with
// apt-get when running as root; otherwise says exactly what to install and fails.
import { execFileSync, spawnSync } from 'node:child_process';

const needed = [
  ['rg', 'ripgrep'],
  ['tmux', 'tmux'],
];
const has = (command) => spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
const missing = needed.filter(([command]) => !has(command)).map(([, pkg]) => pkg);
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
  `The tests need ${missing.join(' and ')}. Install ${missing.length > 1 ? 'them' : 'it'} first, e.g.: sudo apt-get install ${missing.join(' ')}`,
);
process.exit(1);
