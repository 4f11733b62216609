// isolation: worktree across a crash: a child process running a task in its own git worktree is
// killed with SIGKILL after the task wrote a file there; a new process restores the task, which
// goes on inside the same worktree (recorded in its spec, not made anew) and ends with the branch
// and its changes on the result. The main workspace is never touched.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const here = dirname(fileURLToPath(import.meta.url));
const child = join(here, 'worktree-child.ts');
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const gitIn = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-C', cwd, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

function start(...args: string[]) {
  const proc = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', child, ...args], {
    cwd: here,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  proc.stdout!.on('data', (chunk) => {
    out += chunk;
  });
  proc.stderr!.on('data', (chunk) => {
    err += chunk;
  });
  const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
  return { proc, exited, output: () => out, errors: () => err };
}

describe('isolation: worktree survives a crash', () => {
  it('a task SIGKILLed mid-task in its worktree is restored inside the same worktree', async () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), 'troupe-worktree-crash-')));
    dirs.push(root);
    const repo = join(root, 'repo');
    const worktrees = join(root, 'worktrees');
    const store = join(root, 'store');
    execFileSync('git', ['init', '-q', '-b', 'main', repo]);
    writeFileSync(join(repo, 'README.md'), 'the project\n');
    gitIn(repo, 'add', '.');
    gitIn(repo, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'init');

    const first = start('run', repo, worktrees, store);
    await expect.poll(() => first.output(), { timeout: 60_000 }).toMatch(/MARK wrote/);
    const taskId = /MARK spawned (\S+)/.exec(first.output())![1]!;
    first.proc.kill('SIGKILL');
    await first.exited;
    const worktree = join(worktrees, taskId);
    expect(readFileSync(join(worktree, 'notes.txt'), 'utf8')).toBe('written before the crash\n');
    const madeAt = gitIn(worktree, 'rev-parse', '--git-dir').trim();

    const second = start('restore', repo, worktrees, store);
    expect(await second.exited, second.errors()).toBe(0);
    const line = second
      .output()
      .split('\n')
      .find((text) => text.startsWith('RESULT '));
    const { restored, result } = JSON.parse(line!.slice(7));
    expect(restored).toEqual([taskId]);
    expect(result.status).toBe('completed');
    // The restored task worked in the same worktree, and found the file it wrote before the crash.
    expect(result.output).toContain(`${worktree}\\nwritten before the crash`);
    expect(gitIn(worktree, 'rev-parse', '--git-dir').trim()).toBe(madeAt);
    expect(result.workspace).toEqual({
      path: worktree,
      branch: `troupe/isolated-${taskId}`,
      kept: true,
      files: 1,
      added: 1,
      removed: 0,
      changes: [{ file: 'notes.txt', added: 1, removed: 0 }],
    });
    expect(existsSync(join(repo, 'notes.txt'))).toBe(false);
    expect(gitIn(repo, 'status', '--porcelain')).toBe('');
    expect(gitIn(repo, 'worktree', 'list').trim().split('\n')).toHaveLength(2);
  }, 120_000);
});
