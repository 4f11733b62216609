import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type FakeAnthropicServer,
  systemOf,
  textStep,
  toolStep,
} from '../../../test/fake-anthropic/index.js';
import { forkStep } from '../src/commands/replay-fork.js';
import { cleanEnv, fixtureProject, tempDir } from './helpers/cli.js';
import { runCliInProcess } from './helpers/cli-in-process.js';
import { fakeEnv, startFakeClaude } from './helpers/fake-claude.js';

// `troupe replay ID --fork-at STEP [--agent FILE]` end to end: a task run by `troupe run` against a
// fake Claude, then forked at a step; the fork's first request to the API is the original's at
// that step (plus the agent edit).
let server: FakeAnthropicServer;
let project: string;
let home: string;

beforeAll(async () => {
  // explore greps twice, one call per turn, then answers.
  server = await startFakeClaude((request) => {
    const results = (request.body.messages as { content: unknown }[])
      .flatMap((message) => (Array.isArray(message.content) ? (message.content as { type: string }[]) : []))
      .filter((block) => block.type === 'tool_result').length;
    return results < 2
      ? toolStep('grep', { pattern: results === 0 ? 'login' : 'logout' })
      : textStep(`Done after ${results} searches.`);
  });
  project = fixtureProject();
  home = tempDir('home');
});

afterAll(async () => {
  await server.close();
});

const cli = (args: string[]) => runCliInProcess(args, { cwd: project, env: cleanEnv(home, fakeEnv(server)) });
const store = () => join(project, 'store');
/** What the model is asked: the parts of a request a fork must reproduce. */
const asked = (index: number) => {
  const { messages, system, tools, model, max_tokens } = server.requests[index]!.body;
  return { messages, system, tools, model, max_tokens };
};

/** The original task's files in the store, to show a fork leaves them as they were. */
const filesOf = (taskId: string) =>
  ['.json', '.journal.jsonl', '.snapshot.json'].map((suffix) =>
    readFileSync(join(store(), `${taskId}${suffix}`), 'utf8'),
  );

describe('troupe replay ID --fork-at STEP', () => {
  it("prints the steps up to STEP, then runs the fork live: its first request is the original's at that step", async () => {
    const run = await cli([
      'run',
      '--agent',
      'explore',
      '--approval',
      'auto',
      '--json',
      '--store',
      store(),
      'Find login',
    ]);
    expect(run.code, run.stderr).toBe(0);
    const { taskId } = JSON.parse(run.stdout) as { taskId: string };
    expect(server.requests).toHaveLength(3);
    const before = filesOf(taskId);

    // Step 3: task.started, the first model response, the first grep's result: the second call.
    const fork = await cli(['replay', taskId, '--fork-at', '3', '--approval', 'auto', '--store', store()]);
    expect(fork.code, fork.stderr).toBe(0);
    expect(fork.stdout).toMatch(/^step {2}event/m);
    expect(fork.stdout).toMatch(/ 3 {2}tool\.finished +running\.thinking/);
    expect(fork.stdout).not.toMatch(/ 4 {2}model\.responded/);
    const forkId = /Forked \S+ at step 3 → new task (\S+)/.exec(fork.stdout)?.[1];
    expect(forkId).toBeDefined();
    expect(forkId).not.toBe(taskId);
    expect(fork.stdout).toContain('Done after 2 searches.');
    expect(server.requests).toHaveLength(5);
    expect(asked(3)).toEqual(asked(1));
    // The fork replays exactly; the original's files are as they were.
    expect((await cli(['replay', forkId!, '--store', store()])).stdout).toContain('✓ reproduced exactly');
    expect(filesOf(taskId)).toEqual(before);
    // `tasks show` names where the fork came from; its status log reads started, not resumed.
    const shown = await cli(['tasks', 'show', forkId!, '--store', store()]);
    expect(shown.stdout).toContain(`forked:   from task ${taskId} at step 3`);
    const log = readFileSync(join(store(), 'tasks.jsonl'), 'utf8');
    const events = log
      .split('\n')
      .filter((line) => line.includes(forkId!))
      .map((line) => (JSON.parse(line) as { event: string }).event);
    expect(events).toEqual(['task.queued', 'task.started', 'task.completed']);

    // With the agent edited from a file: the same request with the file's system prompt.
    const agentFile = join(project, 'terse.md');
    writeFileSync(
      agentFile,
      '---\nname: explore\ndescription: Terse explorer.\n---\nYou explore, tersely.\n',
    );
    const edited = await cli([
      'replay',
      taskId,
      '--fork-at',
      '3',
      '--agent',
      agentFile,
      '--approval',
      'auto',
      '--store',
      store(),
    ]);
    expect(edited.code, edited.stderr).toBe(0);
    expect(edited.stdout).toContain('agent edited from');
    expect(systemOf(server.requests[5]!)).toContain('You explore, tersely.');
    expect({ ...asked(5), system: undefined }).toEqual({ ...asked(1), system: undefined });

    const far = await cli(['replay', taskId, '--fork-at', '99', '--store', store()]);
    expect(far.code).not.toBe(0);
    expect(far.stderr).toContain(`--fork-at 99: task ${taskId} has steps 1 to 6 (its journal entries).`);
  }, 120_000);

  it('takes a step number from 1 only', () => {
    expect(forkStep('3')).toBe(3);
    for (const bad of ['0', '-1', '2.5', 'x'])
      expect(() => forkStep(bad)).toThrow('--fork-at must be a step number from 1');
  });
});
