// `troupe replay` in a real terminal on the crash test's store: a process killed (SIGKILL) mid
// model call, mid write tool and awaiting approval, then restored by another process. Each task
// replays from its journal to exactly what the store recorded. The last screen is saved to
// apps/cli/test/artifacts/ to be looked at.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { cliCommandLine, tempDir } from './helpers/cli.js';
import { TmuxTerminal } from './helpers/tmux.js';

const here = dirname(fileURLToPath(import.meta.url));
const child = join(here, '..', '..', '..', 'test', 'e2e', 'crash', 'child.ts');
const artifacts = join(here, 'artifacts');
let terminal: TmuxTerminal | undefined;

afterEach(() => {
  terminal?.kill();
  terminal = undefined;
});

/** Runs the crash test's child process; resolves with its stdout when `until` appears (or it exits). */
function runChild(phase: 'run' | 'restore', store: string, ledger: string, until?: RegExp) {
  const proc: ChildProcess = spawn(
    process.execPath,
    ['--conditions=source', '--import', 'tsx', child, 'points', phase, store, ledger],
    { cwd: dirname(child), stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  let err = '';
  proc.stderr!.on('data', (chunk) => {
    err += chunk;
  });
  return new Promise<string>((resolve, reject) => {
    proc.stdout!.on('data', (chunk) => {
      out += chunk;
      if (until?.test(out)) {
        proc.kill('SIGKILL');
        resolve(out);
      }
    });
    proc.on('exit', (code) => {
      if (until && !until.test(out)) reject(new Error(`child exited (${code}) early\n${out}\n${err}`));
      else if (!until && code !== 0) reject(new Error(`child failed (${code})\n${out}\n${err}`));
      else resolve(out);
    });
  });
}

describe('troupe replay on the crash-test store (tmux)', () => {
  it('replays each task of a killed and restored process to exactly what was recorded', async () => {
    const dir = tempDir('crash-replay');
    const store = join(dir, 'store');
    const ledger = join(dir, 'ledger.txt');
    await runChild(
      'run',
      store,
      ledger,
      /(?=[\s\S]*MARK A-model)(?=[\s\S]*MARK B-tool)(?=[\s\S]*MARK C-approval)/,
    );
    const restored = await runChild('restore', store, ledger);
    const result = JSON.parse(
      restored
        .split('\n')
        .find((line) => line.startsWith('RESULT '))!
        .slice(7),
    ) as {
      restored: string[];
    };
    expect(restored.length).toBeGreaterThan(0);
    // B was killed inside its write tool, C while awaiting approval: the most eventful journals.
    const [, b, c] = result.restored;
    const home = tempDir('home');
    const screens: string[] = [];
    for (const id of [b!, c!]) {
      terminal = TmuxTerminal.start(cliCommandLine(['replay', id, '--store', store]), {
        cwd: dir,
        env: { HOME: home, TERM: 'xterm-256color' },
        width: 140,
        height: 30,
      });
      const screen = await terminal.waitFor(/\[exit \d+\]/, 60_000);
      screens.push(screen);
      terminal.kill();
      terminal = undefined;
      expect(screen).toContain(`Replaying ${id}`);
      expect(screen).toMatch(/no model, no tools/);
      expect(screen).toContain('Final: completed (GOAL)');
      expect(screen).toMatch(
        /✓ reproduced exactly: the replay equals the stored snapshot after \d+ journal entries and the stored result\./,
      );
      expect(screen).toContain('[exit 0]');
    }
    // B's write tool ran before the crash and was never run again: its journal has the result.
    expect(screens[0]).toMatch(/append_line\(\{"line":"B"\}\)/);
    expect(readFileSync(ledger, 'utf8').split('\n').filter(Boolean).sort()).toEqual(['B-1 B', 'C-1 C']);
    mkdirSync(artifacts, { recursive: true });
    writeFileSync(join(artifacts, 'replay-crash-tmux.txt'), screens.join('\n\n'));
  }, 180_000);
});
