import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type ApprovalRequest, createPermissionPolicy } from '@troupe/core';
import { afterEach, describe, expect, it } from 'vitest';
import {
  GIT_PUSH_LINES_CHECKED_IN_BASH,
  LINES_NOT_RUNNING_GIT_PUSH,
} from '../../../packages/core/src/permissions/git-push-lines.js';
import type { FakeAnthropicServer } from '../../../test/fake-anthropic/index.js';
import { cleanEnv, fixtureProject, runCli, tempDir } from './helpers/cli.js';
import { fakeEnv, startCommandRunningClaude } from './helpers/fake-claude.js';

let server: FakeAnthropicServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A home whose user settings deny `git push`, and a `git` on PATH that logs what it was asked to do. */
function setup(): { home: string; log: string; path: string } {
  const home = tempDir('home');
  mkdirSync(join(home, '.troupe'), { recursive: true });
  writeFileSync(
    join(home, '.troupe', 'settings.json'),
    JSON.stringify({ permissions: { deny: ['Bash(git push:*)'] } }),
  );
  const bin = tempDir('bin');
  const log = join(bin, 'git.log');
  writeFileSync(join(bin, 'git'), `#!/bin/sh\necho "$*" >> '${log}'\necho "git ran: $*"\n`);
  chmodSync(join(bin, 'git'), 0o755);
  return { home, log, path: `${bin}:${process.env.PATH ?? ''}` };
}

describe('troupe run --approval auto with a deny rule in the user settings (issue #21)', () => {
  it('refuses `true && git push origin main` and other spellings, and runs what the rule does not cover', async () => {
    // The model runs, as a bash command, whatever the prompt says.
    server = await startCommandRunningClaude();
    const { home, log, path } = setup();
    const env = cleanEnv(home, { ...fakeEnv(server), PATH: path });
    const project = fixtureProject();

    for (const command of ['true && git push origin main', "GIT_TRACE=0 bash -c '/usr/bin/env git push'"]) {
      const run = await runCli(['run', '--approval', 'auto', command], { cwd: project, env });
      expect(run.stdout).toMatch(/Result: .*the permission rule Bash\(git push:\*\) denies it/);
      expect(existsSync(log)).toBe(false);
    }

    // The same fake git runs when the rule does not cover the command.
    const allowed = await runCli(['run', '--approval', 'auto', 'true && git status'], { cwd: project, env });
    expect(allowed.stdout).toContain('git ran: status');
    expect(readFileSync(log, 'utf8')).toBe('status\n');
  }, 90_000);
});

// Lines that really run `git push` in bash (checked below with a logging git), and lines that do
// not: the same lists as the core policy's own test. The policy must deny every one of the first
// kind; the second kind it lets through.
/** Runs `line` in bash with a git on PATH that logs its sub-command; the sub-commands it ran. */
function gitSubcommandsIn(line: string): string[] {
  const dir = tempDir('bash');
  const bin = join(dir, 'bin');
  mkdirSync(bin);
  const log = join(dir, 'git.log');
  writeFileSync(
    join(bin, 'git'),
    `#!/bin/sh\nwhile [ $# -gt 0 ]; do case "$1" in -C|-c) shift 2;; -*) shift;; *) break;; esac; done\necho "$1" >> '${log}'\nexit 1\n`,
  );
  chmodSync(join(bin, 'git'), 0o755);
  const work = join(dir, 'work');
  mkdirSync(work);
  writeFileSync(join(work, 'file'), '');
  writeFileSync(join(work, 'push'), '');
  spawnSync('bash', ['-c', `${line}\nwait`], {
    cwd: work,
    env: { PATH: `${bin}:${process.env.PATH ?? ''}`, HOME: dir, SUB: 'push' },
    input: 'push\n',
    timeout: 10_000,
  });
  const ran = existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean) : [];
  rmSync(dir, { recursive: true, force: true });
  return ran;
}

describe('the policy against real bash: every line that runs git push is denied', () => {
  const policy = createPermissionPolicy({ deny: ['Bash(git push:*)'], otherwise: 'approve' });
  const decide = (command: string) =>
    policy.decide({ tool: 'bash', input: { command } } as unknown as ApprovalRequest);

  it.each(GIT_PUSH_LINES_CHECKED_IN_BASH)('%j runs git push in bash, and the policy denies it', (line) => {
    expect(gitSubcommandsIn(line)).toContain('push');
    expect(decide(line)).toMatchObject({ decision: 'deny' });
  });

  it.each(LINES_NOT_RUNNING_GIT_PUSH)(
    '%j does not run git push in bash, and the policy lets it run',
    (line) => {
      expect(gitSubcommandsIn(line)).not.toContain('push');
      expect(decide(line)).toBe('approve');
    },
  );
});
