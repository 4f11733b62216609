import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { FakeAnthropicServer } from '../../../test/fake-anthropic/index.js';
import { textStep, toolResultsOf, toolStep } from '../../../test/fake-anthropic/index.js';
import { cleanEnv, fixtureProject, runCli, tempDir } from './helpers/cli.js';
import { fakeEnv, startFakeClaude } from './helpers/fake-claude.js';

let server: FakeAnthropicServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const gitIn = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-C', cwd, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

describe('troupe run with an agent that has isolation: worktree', () => {
  it('runs the task in a worktree of its own and shows the branch and the changes; tasks show repeats them', async () => {
    const project = fixtureProject();
    const home = tempDir('home');
    mkdirSync(join(project, '.troupe', 'agents'), { recursive: true });
    writeFileSync(
      join(project, '.troupe', 'agents', 'isolated.md'),
      '---\nname: isolated\ndescription: Edits in a worktree\ntools: write, read\nisolation: worktree\n---\nYou edit.\n',
    );
    gitIn(project, 'init', '-q', '-b', 'main');
    gitIn(project, 'add', '.');
    gitIn(project, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'init');
    server = await startFakeClaude((request) =>
      toolResultsOf(request).length
        ? textStep('Wrote plan.md.')
        : toolStep('write', { file_path: 'plan.md', content: 'step 1\nstep 2\n' }),
    );
    const env = cleanEnv(home, fakeEnv(server));
    const run = await runCli(['run', '--agent', 'isolated', '--approval', 'auto', 'write the plan'], {
      cwd: project,
      env,
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe('Wrote plan.md.\n');
    const taskId = /on branch troupe\/isolated-(t_\w+)/.exec(run.stderr)?.[1];
    expect(taskId, run.stderr).toBeDefined();
    const worktree = join(home, '.troupe', 'worktrees', project.split('/').at(-1)!, taskId!);
    expect(run.stderr).toContain(`worktree: ${worktree} on branch troupe/isolated-${taskId} · 1 file, +2 -0`);
    expect(run.stderr).toMatch(/^ {4}plan\.md \+2 -0$/m);
    expect(existsSync(join(worktree, 'plan.md'))).toBe(true);
    expect(existsSync(join(project, 'plan.md'))).toBe(false);
    const shown = await runCli(['tasks', 'show', taskId!], { cwd: project, env });
    expect(shown.stdout).toContain(
      `worktree: ${worktree} on branch troupe/isolated-${taskId} · 1 file, +2 -0`,
    );
  }, 90_000);
});
