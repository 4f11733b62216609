import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { createFileStore } from '@troupe/node';
import { afterEach, describe, expect, it } from 'vitest';
import type { FakeAnthropicServer } from '../../../test/fake-anthropic/index.js';
import { cleanEnv, cliArgs, fixtureProject, runCli, tempDir } from './helpers/cli.js';
import { useCrashedRuns } from './helpers/crashed-run.js';
import { fakeEnv, gate, sessionScenario, startFakeClaude } from './helpers/fake-claude.js';

let server: FakeAnthropicServer | undefined;
let child: ChildProcess | undefined;

afterEach(async () => {
  child?.kill('SIGKILL');
  child = undefined;
  await server?.close();
  server = undefined;
});

const crashedRun = useCrashedRuns();

function exited(process: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => process.on('exit', (code, signal) => resolve(signal ? null : code)));
}

// Each test starts about six CLI processes (about 3 s each on a loaded 2-core machine).
describe('troupe tasks over the persisted store', { timeout: 120_000 }, () => {
  it('lists, shows, resumes an interrupted task after a crash, refuses to cancel it once finished, and follows it up', async () => {
    const { project, store, env, server } = await crashedRun();

    const listed = await runCli(['tasks', 'list', '--store', store], { cwd: project, env });
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(/t_\S+\s+explore\s+find login\s+running/);
    const id = /(t_\S+)\s+explore/.exec(listed.stdout)![1]!;

    const resumed = await runCli(['tasks', 'resume', id.slice(0, -2), '--store', store], {
      cwd: project,
      env,
    });
    expect(resumed.code).toBe(0);
    expect(resumed.stderr).toContain('Resuming 1 task');
    expect(resumed.stdout).toMatch(/login is in src\/auth\.js/);

    const shown = await runCli(['tasks', 'show', id, '--store', store], { cwd: project, env });
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain('status:   completed (GOAL)');
    expect(shown.stdout).toContain('→ grep');
    expect(shown.stdout).toMatch(/pattern: login/);
    expect(shown.stdout).toMatch(/login is in src\/auth\.js/);
    // The task's usage and its estimated cost, from the stored result.
    expect(shown.stdout).toMatch(/tokens: {3}input \S+ \(cache read \S+, cache write \S+\) · output \S+/);
    expect(shown.stdout).toMatch(/cost: {5}≈ \$\d+\.\d+ \(estimate at list prices\)/);

    const again = await runCli(['tasks', 'cancel', id, '--store', store], { cwd: project, env });
    expect(again.code).toBe(1);
    expect(again.stderr).toBe(`troupe: Task ${id} already ended (completed).\n`);

    // A follow-up continues the finished task's conversation as a new linked task, run here.
    const followed = await runCli(
      ['tasks', 'follow-up', id.slice(0, -2), 'and', 'logout?', '--store', store],
      {
        cwd: project,
        env,
      },
    );
    expect(followed.code).toBe(0);
    const newId = new RegExp(`Following up task ${id} \\(explore\\) as task (t_\\S+)\\.`).exec(
      followed.stderr,
    )?.[1];
    expect(newId).toBeDefined();
    expect(followed.stdout).toMatch(/^login is in src\/auth\.js/);
    const reader = createFileStore({ dir: store });
    const follow = await reader.getTask(newId!);
    await reader.close();
    expect(follow).toMatchObject({
      status: 'completed',
      spec: { agent: 'explore', followUpOf: id, prompt: 'and logout?' },
    });
    // Its first request carries the conversation it continues, then the new message.
    const first = server.requests.find((request) => JSON.stringify(request.body).includes('and logout?'));
    expect(first?.body.messages.map((message: { role: string }) => message.role)).toEqual([
      'user',
      'assistant',
      'user',
      'assistant',
      'user',
    ]);
    expect(first?.body.messages[0].content[0].text).toBe('find login');
    expect(first?.body.messages[3].content[0].text).toMatch(/^login is in src\/auth\.js/);
  });

  it('refuses a follow-up of an unfinished task, cancels it when no process runs it; it is then listed as cancelled', async () => {
    const { project, store, env } = await crashedRun();
    const json = await runCli(['tasks', 'list', '--json', '--store', store], { cwd: project, env });
    const [task] = JSON.parse(json.stdout) as { id: string; status: string }[];
    expect(task?.status).toBe('running');
    const early = await runCli(['tasks', 'follow-up', task!.id, 'more?', '--store', store], {
      cwd: project,
      env,
    });
    expect(early.code).toBe(1);
    expect(early.stderr).toBe(
      `troupe: Task ${task!.id} has not finished (running): a follow-up continues a finished task (troupe tasks resume ${task!.id} carries it on).\n`,
    );

    const cancelled = await runCli(['tasks', 'cancel', task!.id, '--store', store], { cwd: project, env });
    expect(cancelled.code).toBe(0);
    expect(cancelled.stdout).toContain(`Cancelled task ${task!.id}`);
    const listed = await runCli(['tasks', 'list', '--status', 'cancelled', '--store', store], {
      cwd: project,
      env,
    });
    expect(listed.stdout).toMatch(new RegExp(`${task!.id}\\s+explore\\s+find login\\s+cancelled`));
    const nothing = await runCli(['tasks', 'resume', '--store', store], { cwd: project, env });
    expect(nothing.stdout).toContain('No unfinished tasks to resume');
  });

  it('will not cancel a task from the store while the troupe process running it is alive', async () => {
    server = await startFakeClaude(sessionScenario({ explore: gate() }));
    const project = fixtureProject();
    const store = join(tempDir('store'), 'tasks');
    const env = cleanEnv(tempDir('home'), fakeEnv(server));
    child = spawn(process.execPath, cliArgs(['run', '--store', store, '--agent', 'explore', 'find login']), {
      cwd: project,
      env,
      stdio: 'ignore',
    });
    await server.waitForRequests(2);
    const json = await runCli(['tasks', 'list', '--json', '--store', store], { cwd: project, env });
    const [task] = JSON.parse(json.stdout) as { id: string }[];
    const refused = await runCli(['tasks', 'cancel', task!.id, '--store', store], { cwd: project, env });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      new RegExp(
        `^troupe: Task ${task!.id} belongs to a troupe process that is still running \\(pid ${child.pid}\\)`,
      ),
    );
    // SIGINT (Ctrl-C) cancels it there: exit code 130.
    const done = exited(child);
    child.kill('SIGINT');
    expect(await done).toBe(130);
    child = undefined;
    const listed = await runCli(['tasks', 'list', '--store', store], { cwd: project, env });
    expect(listed.stdout).toMatch(/explore\s+find login\s+cancelled/);
  });

  it('run --background returns at once; the detached process persists the task, which can be cancelled', async () => {
    server = await startFakeClaude(sessionScenario({ explore: gate() }));
    const project = fixtureProject();
    const store = join(tempDir('store'), 'tasks');
    const env = cleanEnv(tempDir('home'), fakeEnv(server));
    const started = await runCli(
      ['run', '--background', '--json', '--agent', 'explore', '--store', store, 'find login'],
      {
        cwd: project,
        env,
      },
    );
    expect(started.code).toBe(0);
    const { taskId } = JSON.parse(started.stdout) as { taskId: string };
    // The detached process reaches the model: its second call waits on the closed gate.
    await server.waitForRequests(2);
    const shown = await runCli(['tasks', 'show', taskId, '--store', store], { cwd: project, env });
    expect(shown.stdout).toMatch(/status: {3}running/);
    const cancel = await runCli(['tasks', 'cancel', taskId, '--store', store], { cwd: project, env });
    expect(cancel.code).toBe(0);
    expect(cancel.stdout).toMatch(
      new RegExp(`Asked the process running task ${taskId} \\(pid \\d+\\) to cancel it\\.`),
    );
    // The detached process records the cancellation and ends: its model call is closed by the client.
    const outcome = await server.requests[1]!.finished;
    expect(outcome).toBe('client-closed');
  });
});
