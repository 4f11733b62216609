import { type ChildProcess, spawn } from 'node:child_process';

/**
 * Starts a process that swaps the entries `name` and `other` of the folder `root` as fast as it
 * can (through a temporary name), until it is killed: the race of the check-then-open tests.
 * Resolves once it is swapping, with the function that kills it.
 */
export function startSwapper(root: string, name: string, other: string): Promise<() => void> {
  const source = `
const { renameSync } = require('node:fs');
const [name, other] = ${JSON.stringify([name, other])};
process.chdir(process.argv[1]);
process.stdout.write('ready\\n');
for (;;) {
  try {
    renameSync(name, name + '.swap');
    renameSync(other, name);
    renameSync(name, other);
    renameSync(name + '.swap', name);
  } catch {}
}`;
  const child: ChildProcess = spawn(process.execPath, ['-e', source, root], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const kill = () => {
    child.kill('SIGKILL');
  };
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.stdout?.once('data', () => resolve(kill));
  });
}
