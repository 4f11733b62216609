import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FakeAnthropicServer } from '../../../test/fake-anthropic/index.js';
import { cleanEnv, fixtureProject, tempDir } from './helpers/cli.js';
import { runCliInProcess } from './helpers/cli-in-process.js';
import { fakeEnv, gate, sessionScenario, startFakeClaude } from './helpers/fake-claude.js';

let server: FakeAnthropicServer;
let project: string;
let home: string;

beforeEach(async () => {
  server = await startFakeClaude(sessionScenario({ explore: gate(true) }));
  project = fixtureProject();
  home = tempDir('home');
});

afterEach(async () => {
  await server.close();
});

const env = () => cleanEnv(home, fakeEnv(server));

describe('troupe run (not a terminal)', () => {
  it('prints the result as JSON with --json and exits 0 on GOAL', async () => {
    const run = await runCliInProcess(['run', '--json', 'find the auth code'], { cwd: project, env: env() });
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout);
    expect(result).toMatchObject({ agent: 'main', status: 'completed', terminateReason: 'GOAL' });
    expect(result.output).toMatch(/^Summary: login is in src\/auth\.js/);
    expect(result.tasks).toEqual([
      expect.objectContaining({
        agent: 'explore',
        description: 'Find auth code',
        status: 'completed',
        toolCalls: 1,
      }),
    ]);
    // Progress went to stderr as plain lines.
    expect(run.stderr).toContain('[explore] Find auth code ... started');
    expect(run.stderr).toMatch(/\[explore\] Find auth code - done \(1 tool, .+, .+ tokens\)/);
    expect(run.stderr + run.stdout).not.toContain('\x1b');
  });

  it('--json prints only task ids that troupe tasks show can find, and the session key', async () => {
    const store = join(tempDir('store'), 'tasks');
    for (const args of [['find the auth code'], ['--agent', 'explore', 'find login']]) {
      const run = await runCliInProcess(['run', '--json', '--store', store, ...args], {
        cwd: project,
        env: env(),
      });
      expect(run.code).toBe(0);
      const result = JSON.parse(run.stdout);
      expect(result.sessionKey).toMatch(/^run-/);
      const ids = [result.taskId, ...result.tasks.map((task: { id: string }) => task.id)].filter(Boolean);
      expect(ids.length).toBeGreaterThan(0);
      for (const id of ids) {
        const shown = await runCliInProcess(['tasks', 'show', id, '--store', store], {
          cwd: project,
          env: env(),
        });
        expect(shown.stderr).toBe('');
        expect(shown.code).toBe(0);
      }
    }
  }, 60_000);

  it('uses --model for the main agent and --small-model for agents with model: small', async () => {
    const run = await runCliInProcess(
      ['run', '--model', 'main-model-id', '--small-model', 'small-model-id', 'find the auth code'],
      {
        cwd: project,
        env: env(),
      },
    );
    expect(run.code).toBe(0);
    const models = server.requests.map((request) => request.body.model);
    expect(models).toEqual(['main-model-id', 'small-model-id', 'small-model-id', 'main-model-id']);
  });

  it('waits for background tasks the main agent started and prints its follow-up summaries', async () => {
    const run = await runCliInProcess(['run', '--json', 'search in the background'], {
      cwd: project,
      env: env(),
    });
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout);
    expect(result.output).toMatch(/^Summary: Started task t_\S+ in the background/);
    expect(result.followUps).toEqual(['Background news: the login search is done.']);
    expect(result.tasks).toEqual([
      expect.objectContaining({
        description: 'Search in the background',
        status: 'completed',
        background: true,
      }),
    ]);
  });

  it('runs one agent directly with --agent and prints its answer', async () => {
    const run = await runCliInProcess(['run', '--agent', 'Explore', 'find login'], {
      cwd: project,
      env: env(),
    });
    expect(run.code).toBe(0);
    expect(run.stdout.trim()).toMatch(/^login is in src\/auth\.js/);
  });

  it('denies write tools outside a terminal and says so', async () => {
    const run = await runCliInProcess(['run', 'write the notes'], { cwd: project, env: env() });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(
      'Not a terminal: write and execute tools (write, edit, bash) will be denied',
    );
    expect(run.stdout).toMatch(/Summary: Could not write notes\.txt/);
    expect(existsSync(join(project, 'notes.txt'))).toBe(false);
  });

  it('allows them with --approval auto', async () => {
    const run = await runCliInProcess(['run', '--approval', 'auto', 'write the notes'], {
      cwd: project,
      env: env(),
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Summary: Wrote notes.txt.');
    expect(readFileSync(join(project, 'notes.txt'), 'utf8')).toBe('hello from troupe\n');
  });

  it('reads the prompt from stdin', async () => {
    const run = await runCliInProcess(['run', '--agent', 'explore'], {
      cwd: project,
      env: env(),
      input: 'find login\n',
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/login is in src\/auth\.js/);
  });

  it('exits 3 when the task runs out of turns (limits from the project config)', async () => {
    mkdirSync(join(project, '.troupe'));
    writeFileSync(join(project, '.troupe', 'config.json'), JSON.stringify({ limits: { maxTurns: 1 } }));
    const run = await runCliInProcess(['run', '--agent', 'explore', '--json', 'find login'], {
      cwd: project,
      env: env(),
    });
    expect(run.code).toBe(3);
    expect(JSON.parse(run.stdout)).toMatchObject({ status: 'failed', terminateReason: 'MAX_TURNS' });
  });

  it('exits 6 when the model fails, with the reason on one line', async () => {
    server.setHandler(() => ({
      fault: 'http_error',
      status: 400,
      errorType: 'invalid_request_error',
      message: 'prompt is too long',
    }));
    const run = await runCliInProcess(['run', '--agent', 'explore', 'find login'], {
      cwd: project,
      env: env(),
    });
    expect(run.code).toBe(6);
    expect(run.stderr).toMatch(/troupe: the task failed \(ERROR\): .*prompt is too long/);
    expect(run.stderr).not.toMatch(/\n\s+at /);
    server.setHandler(sessionScenario({ explore: gate(true) }));
    // The 400s were asked for; do not let the strict server fail the test for them.
    server.validationErrors.length = 0;
  });
});
