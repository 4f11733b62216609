import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cleanEnv, fixtureProject, tempDir } from './helpers/cli.js';
import { runCliInProcess } from './helpers/cli-in-process.js';

const key = { ANTHROPIC_API_KEY: 'sk-ant-test-unused', ANTHROPIC_BASE_URL: 'http://127.0.0.1:9' };

function expectOneLine(stderr: string): void {
  expect(stderr.trim().split('\n')).toHaveLength(1);
  expect(stderr).toMatch(/^troupe: /);
  expect(stderr).not.toMatch(/\n\s+at /);
}

describe('errors the user can cause', () => {
  it('without a key: says how to set it and that the demo runs offline (exit 1)', async () => {
    const run = await runCliInProcess(['run', 'hello'], {
      cwd: fixtureProject(),
      env: cleanEnv(tempDir('home')),
    });
    expect(run.code).toBe(1);
    expectOneLine(run.stderr);
    expect(run.stderr).toContain('set ANTHROPIC_API_KEY');
    expect(run.stderr).toContain('troupe demo');
  });

  it('a bad ANTHROPIC_BASE_URL is named as the variable (exit 1)', async () => {
    const env = cleanEnv(tempDir('home'), { ...key, ANTHROPIC_BASE_URL: 'not-a-url' });
    const run = await runCliInProcess(['run', 'hello'], { cwd: fixtureProject(), env });
    expect(run.code).toBe(1);
    expectOneLine(run.stderr);
    expect(run.stderr).toContain('ANTHROPIC_BASE_URL must be an http:// or https:// URL, not "not-a-url"');
    expect(run.stderr).not.toContain('createAnthropicModel');
  });

  it('an unknown flag is a usage error (exit 2)', async () => {
    const run = await runCliInProcess(['--bogus'], { cwd: fixtureProject(), env: cleanEnv(tempDir('home')) });
    expect(run.code).toBe(2);
    expectOneLine(run.stderr);
    expect(run.stderr).toContain('Unknown option --bogus');
  });

  it('a flag the command does not take, or a bad value, is a usage error (exit 2)', async () => {
    const env = cleanEnv(tempDir('home'));
    const wrong = await runCliInProcess(['agents', 'list', '--background'], { cwd: fixtureProject(), env });
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('troupe agents does not take --background');
    const value = await runCliInProcess(['run', '--approval', 'maybe', 'x'], { cwd: fixtureProject(), env });
    expect(value.code).toBe(2);
    expect(value.stderr).toContain('--approval must be ask, auto or deny, not "maybe"');
  });

  it('an unknown agent names the available ones (exit 2)', async () => {
    const run = await runCliInProcess(['run', '--agent', 'nobody', 'hi'], {
      cwd: fixtureProject(),
      env: cleanEnv(tempDir('home'), key),
    });
    expect(run.code).toBe(2);
    expectOneLine(run.stderr);
    expect(run.stderr).toMatch(/No agent named "nobody"\. Available: .*explore/);
  });

  it('a bad config file names the file and the field (exit 1); --debug adds the stack', async () => {
    const home = tempDir('home');
    mkdirSync(join(home, '.troupe'));
    const file = join(home, '.troupe', 'config.json');
    writeFileSync(file, JSON.stringify({ limits: { maxTurns: 0 } }));
    const run = await runCliInProcess(['run', 'hi'], { cwd: fixtureProject(), env: cleanEnv(home, key) });
    expect(run.code).toBe(1);
    expectOneLine(run.stderr);
    expect(run.stderr).toContain(
      `The config file ${file} is invalid: field "limits.maxTurns" must be at least 1.`,
    );
    const debug = await runCliInProcess(['run', '--debug', 'hi'], {
      cwd: fixtureProject(),
      env: cleanEnv(home, key),
    });
    expect(debug.code).toBe(1);
    expect(debug.stderr).toMatch(/\n\s+at /);
  });

  it('a config file that is not JSON names the file (exit 1)', async () => {
    const project = fixtureProject();
    mkdirSync(join(project, '.troupe'));
    writeFileSync(join(project, '.troupe', 'config.json'), '{ "model": ');
    const run = await runCliInProcess(['run', 'hi'], { cwd: project, env: cleanEnv(tempDir('home'), key) });
    expect(run.code).toBe(1);
    expectOneLine(run.stderr);
    expect(run.stderr).toContain(
      `The config file ${join(project, '.troupe', 'config.json')} is not valid JSON`,
    );
  });

  it('an agents folder that cannot be read is one line (exit 1)', async () => {
    const project = fixtureProject();
    mkdirSync(join(project, '.claude'));
    writeFileSync(join(project, '.claude', 'agents'), 'not a folder');
    const run = await runCliInProcess(['agents', 'list'], { cwd: project, env: cleanEnv(tempDir('home')) });
    expect(run.code).toBe(1);
    expectOneLine(run.stderr);
    expect(run.stderr).toContain(`${join(project, '.claude', 'agents')}: expected a folder of agent files`);
  });
});
