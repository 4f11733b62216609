// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${VAR} is .mcp.json syntax, expanded by troupe.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startTestCluster, type TestCluster } from '@troupe/postgres/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { GIT_PUSH_LINES_CHECKED_IN_BASH } from '../../../packages/core/src/permissions/git-push-lines.js';
import type { FakeAnthropicServer } from '../../../test/fake-anthropic/index.js';
import { textStep, toolResultsOf, toolStep } from '../../../test/fake-anthropic/index.js';
import { cleanEnv, cliArgs, fixtureProject, runCli, tempDir } from './helpers/cli.js';
import { fakeEnv, startCommandRunningClaude, startFakeClaude } from './helpers/fake-claude.js';

// The real @modelcontextprotocol/server-filesystem (a devDependency of @troupe/mcp), from node_modules.
const FILESYSTEM = fileURLToPath(
  new URL(
    '../../../packages/mcp/node_modules/@modelcontextprotocol/server-filesystem/dist/index.js',
    import.meta.url,
  ),
);

let cluster: TestCluster;
let server: FakeAnthropicServer | undefined;
const workers: ChildProcess[] = [];

beforeAll(async () => {
  cluster = await startTestCluster();
}, 60_000);

afterEach(async () => {
  for (const worker of workers.splice(0)) worker.kill('SIGKILL');
  await server?.close();
  server = undefined;
});

afterAll(async () => {
  await cluster?.destroy();
});

/** Starts `troupe worker` in `cwd`; resolves once it is ready (its start-up lines printed). */
async function startWorker(
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv },
): Promise<{ process: ChildProcess; log: () => string }> {
  const child = spawn(process.execPath, cliArgs(['worker', ...args]), options);
  workers.push(child);
  let log = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    log += chunk;
  });
  await expect.poll(() => log, { timeout: 60_000 }).toMatch(/running tasks of the cluster/);
  return { process: child, log: () => log };
}

async function stop(worker: ChildProcess): Promise<number | null> {
  const stopped = new Promise<number | null>((resolve) => worker.once('exit', resolve));
  worker.kill('SIGTERM');
  return stopped;
}

// A handful of the spellings core's deny-rule test checks (and the CLI's, in a real bash).
const SPELLINGS = ['true && git push', "bash -c 'git push'", 'env -u HOME git push', 'git -C . push'];

describe('troupe worker builds its runtime as troupe run does (issue #29 item 1)', () => {
  it("a deny rule in the project's settings stops a tool on a worker exactly as in `troupe run`", async () => {
    expect(GIT_PUSH_LINES_CHECKED_IN_BASH).toEqual(expect.arrayContaining(SPELLINGS));
    server = await startCommandRunningClaude();
    const project = fixtureProject();
    // The project is not trusted: its deny rules count all the same (they only narrow).
    mkdirSync(join(project, '.troupe'), { recursive: true });
    writeFileSync(
      join(project, '.troupe', 'settings.json'),
      JSON.stringify({ permissions: { deny: ['Bash(git push:*)'] } }),
    );
    const bin = tempDir('bin');
    const gitLog = join(bin, 'git.log');
    writeFileSync(join(bin, 'git'), `#!/bin/sh\necho "$*" >> '${gitLog}'\necho "git ran: $*"\n`);
    chmodSync(join(bin, 'git'), 0o755);
    const env = cleanEnv(tempDir('home'), { ...fakeEnv(server), PATH: `${bin}:${process.env.PATH ?? ''}` });
    const url = await cluster.createDatabase('deny');
    const worker = await startWorker(['--postgres', url, '--approval', 'auto'], { cwd: project, env });
    expect(worker.log()).toMatch(/^ {2}settings: \.troupe\/settings\.json$/m);
    expect(worker.log()).toMatch(/^ {2}deny rules: Bash\(git push:\*\)$/m);
    expect(worker.log()).toMatch(
      /^ {2}approval: auto \(write and execute tools run unless a deny rule covers them\)$/m,
    );
    expect(worker.log()).toMatch(/^ {2}project: .* \(not trusted: /m);

    for (const line of [...SPELLINGS, 'true && git status']) {
      const [local, onWorker] = await Promise.all([
        runCli(['run', '--approval', 'auto', line], { cwd: project, env }),
        runCli(['run', '--postgres', url, '--agent', 'general-purpose', line], { cwd: project, env }),
      ]);
      expect(onWorker.code, onWorker.stderr).toBe(0);
      expect(onWorker.stdout).toBe(local.stdout);
      if (line.includes('push'))
        expect(onWorker.stdout).toMatch(/^Result: .*the permission rule Bash\(git push:\*\) denies it/);
      else expect(onWorker.stdout).toContain('git ran: status');
    }
    // Only `git status` ran, once here and once on the worker; no push anywhere.
    expect(existsSync(gitLog) ? readFileSync(gitLog, 'utf8') : '').toBe('status\nstatus\n');
    expect(await stop(worker.process)).toBe(0);
  }, 180_000);

  it("an MCP server configured for a trusted project is used by a worker's task, and stops with the worker", async () => {
    const project = fixtureProject();
    const home = tempDir('home');
    mkdirSync(join(home, '.troupe'), { recursive: true });
    writeFileSync(join(home, '.troupe', 'settings.json'), JSON.stringify({ mcpVariables: ['PROJECT_DIR'] }));
    writeFileSync(join(project, 'secret-plan.txt'), 'Step 1: run MCP on the workers.\n');
    writeFileSync(
      join(project, '.mcp.json'),
      JSON.stringify({
        mcpServers: {
          filesystem: {
            command: process.execPath,
            args: [FILESYSTEM, '${PROJECT_DIR}'],
            toolAccess: { read_text_file: 'read' },
          },
        },
      }),
    );
    mkdirSync(join(project, '.troupe', 'agents'), { recursive: true });
    writeFileSync(
      join(project, '.troupe', 'agents', 'reader.md'),
      '---\nname: reader\ndescription: Reads files through MCP\ntools: mcp__filesystem__read_text_file\n---\nYou read files.\n',
    );
    server = await startFakeClaude((request) => {
      const results = toolResultsOf(request);
      if (results.length === 0)
        return toolStep('mcp__filesystem__read_text_file', { path: join(project, 'secret-plan.txt') });
      return textStep(`The file says: ${results[0]!.content.trim()}`);
    });
    const env = cleanEnv(home, { ...fakeEnv(server), PROJECT_DIR: project, TROUPE_TRUST_PROJECT: '1' });
    const url = await cluster.createDatabase('mcp');
    const worker = await startWorker(['--postgres', url], { cwd: project, env });
    expect(worker.log()).toMatch(/^ {2}MCP servers: filesystem \(stdio, \.mcp\.json\)$/m);
    expect(worker.log()).toMatch(/^ {2}project: .* \(trusted: TROUPE_TRUST_PROJECT=1\)$/m);
    expect(worker.log()).toMatch(/^ {2}agents: \d+ \(.*reader/m);

    const run = await runCli(
      ['run', '--postgres', url, '--agent', 'reader', 'What does secret-plan.txt say?'],
      {
        cwd: project,
        env,
      },
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.trim()).toBe('The file says: Step 1: run MCP on the workers.');
    expect(worker.log()).toMatch(/\[reader\] What does secret-plan.txt say\? completed \(1 tools/);
    expect(await stop(worker.process)).toBe(0);
    const servers = execFileSync('ps', ['-eo', 'args='], { encoding: 'utf8' })
      .split('\n')
      .filter((line) => line.includes(FILESYSTEM) && line.includes(project));
    expect(servers).toEqual([]);
    rmSync(join(project, '.mcp.json'));
  }, 180_000);
});
