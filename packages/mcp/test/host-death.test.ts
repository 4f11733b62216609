import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it, vi } from 'vitest';
import { isRunning } from '../src/node/process-tree.js';
import { killedAfterEach } from './leftover-processes.js';

// A host process (tsx) and a real server: seconds on a busy machine.
vi.setConfig({ testTimeout: 60_000 });

// Node itself with tsx's loader (the tsx command would run the host as its child).
const TSX = fileURLToPath(new URL('../../../node_modules/tsx/dist/loader.mjs', import.meta.url));
const HOST = fileURLToPath(new URL('./fixtures/host.ts', import.meta.url));
// What a failing run leaves is not left to sleep for ten minutes.
const started = killedAfterEach();

it('a host killed with SIGKILL leaves no daemon of its servers: a watchdog stops them', async () => {
  const host = spawn(process.execPath, ['--import', TSX, '--conditions=source', HOST], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const line = await new Promise<string>((resolve, reject) => {
    let output = '';
    host.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
      if (output.includes('\n')) resolve(output.split('\n')[0]!);
    });
    host.once('exit', (code) => reject(new Error(`the host exited (${code}) before starting its daemons`)));
  });
  const { daemons } = JSON.parse(line) as { daemons: number[] };
  started.push(...daemons);
  expect(daemons.map(isRunning)).toEqual([true, true]);
  started.push(host.pid!);
  host.kill('SIGKILL');
  await expect.poll(() => daemons.filter(isRunning), { timeout: 10_000 }).toEqual([]);
});
