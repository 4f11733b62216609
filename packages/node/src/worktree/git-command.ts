import { execFile, execFileSync } from 'node:child_process';
import { TroupeError } from '@troupe/core';

/** Longest a git command of the worktree workspaces may run, in ms. */
const GIT_TIMEOUT_MS = 60_000;

/** The error of a git command that failed: what was run, where, and git's own words. */
function gitError(args: readonly string[], cwd: string, error: unknown): TroupeError {
  const { code, stderr } = error as { code?: unknown; stderr?: unknown };
  if (code === 'ENOENT')
    return new TroupeError(
      'WORKSPACE_UNAVAILABLE',
      'git is not installed (or not on PATH): isolation: worktree needs it.',
    );
  const said = (typeof stderr === 'string' ? stderr : Buffer.isBuffer(stderr) ? stderr.toString('utf8') : '')
    .trim()
    .split('\n')
    .slice(0, 3)
    .join(' ');
  return new TroupeError(
    'WORKSPACE_UNAVAILABLE',
    `git ${args.join(' ')} failed in ${cwd}: ${said || (error as Error).message}`,
  );
}

/** Runs git in `cwd`; resolves with its stdout, rejects with a `WORKSPACE_UNAVAILABLE` error. */
export function git(cwd: string, args: readonly string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      'git',
      ['-C', cwd, ...args],
      { encoding: 'utf8', timeout: GIT_TIMEOUT_MS, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error) reject(gitError(args, cwd, Object.assign(error, { stderr })));
        else resolve(stdout);
      },
    );
  });
}

/** {@link git}, synchronously (for a spawn, which is synchronous): a few ms for `rev-parse`. */
export function gitSync(cwd: string, args: readonly string[]): string {
  try {
    return execFileSync('git', ['-C', cwd, ...args], {
      encoding: 'utf8',
      timeout: GIT_TIMEOUT_MS,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  } catch (error) {
    throw gitError(args, cwd, error);
  }
}
