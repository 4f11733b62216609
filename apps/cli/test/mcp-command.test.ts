// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${VAR} is .mcp.json syntax, expanded by troupe.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type FakeAnthropicServer,
  textStep,
  toolNamesOf,
  toolResultsOf,
  toolStep,
} from '../../../test/fake-anthropic/index.js';
import { cleanEnv, fixtureProject, tempDir } from './helpers/cli.js';
import { runCliInProcess } from './helpers/cli-in-process.js';
import { fakeEnv, startFakeClaude } from './helpers/fake-claude.js';

// The real @modelcontextprotocol/server-filesystem (a devDependency of @troupe/mcp), from node_modules.
const FILESYSTEM = fileURLToPath(
  new URL(
    '../../../packages/mcp/node_modules/@modelcontextprotocol/server-filesystem/dist/index.js',
    import.meta.url,
  ),
);

let server: FakeAnthropicServer;
let project: string;
let home: string;

function writeConfig(servers: Record<string, unknown>) {
  writeFileSync(join(project, '.mcp.json'), JSON.stringify({ mcpServers: servers }, null, 2));
}

function writeAgent(name: string, frontMatter: string) {
  mkdirSync(join(project, '.troupe', 'agents'), { recursive: true });
  writeFileSync(
    join(project, '.troupe', 'agents', `${name}.md`),
    `---\nname: ${name}\ndescription: Reads files through MCP\n${frontMatter}---\nYou read files.\n`,
  );
}

/** Live processes running the filesystem server on this test's project. */
function serverProcesses(): string[] {
  return execFileSync('ps', ['-eo', 'args='], { encoding: 'utf8' })
    .split('\n')
    .filter((line) => line.includes(FILESYSTEM) && line.includes(project));
}

beforeEach(async () => {
  project = fixtureProject();
  home = tempDir('home');
  // The user lets projects' MCP configs read PROJECT_DIR; the project is trusted (TROUPE_TRUST_PROJECT in env()).
  mkdirSync(join(home, '.troupe'), { recursive: true });
  writeFileSync(join(home, '.troupe', 'settings.json'), JSON.stringify({ mcpVariables: ['PROJECT_DIR'] }));
  writeFileSync(join(project, 'secret-plan.txt'), 'Step 1: ship the MCP client.\n');
  writeConfig({ filesystem: { command: process.execPath, args: [FILESYSTEM, '${PROJECT_DIR}'] } });
  writeAgent('reader', 'tools: mcp__filesystem__read_text_file\n');
  // The user's word that read_text_file only reads (the server's readOnlyHint alone is not enough).
  writeConfig({
    filesystem: {
      command: process.execPath,
      args: [FILESYSTEM, '${PROJECT_DIR}'],
      toolAccess: { read_text_file: 'read' },
    },
  });
  server = await startFakeClaude((request) => {
    const results = toolResultsOf(request);
    if (results.length === 0)
      return toolStep('mcp__filesystem__read_text_file', { path: join(project, 'secret-plan.txt') });
    return textStep(`The file says: ${results[0]!.content.trim()}`);
  });
});

afterEach(async () => {
  await server.close();
});

const env = () => cleanEnv(home, { ...fakeEnv(server), PROJECT_DIR: project, TROUPE_TRUST_PROJECT: '1' });

// Each test starts the CLI and a real MCP server as processes: seconds each on a busy machine.
describe('MCP in the CLI', { timeout: 60_000 }, () => {
  it('troupe run: a sub-agent reads a file through the MCP filesystem server; no server survives', async () => {
    const run = await runCliInProcess(['run', '--agent', 'reader', 'What does secret-plan.txt say?'], {
      cwd: project,
      env: env(),
    });
    expect(run.stderr).not.toMatch(/unavailable|error/i);
    expect(run.code).toBe(0);
    expect(run.stdout.trim()).toBe('The file says: Step 1: ship the MCP client.');
    expect(toolNamesOf(server.requests[0]!)).toEqual(['mcp__filesystem__read_text_file']);
    expect(run.stderr).toMatch(/mcp__filesystem__read_text_file/);
    expect(serverProcesses()).toEqual([]);
  });

  it('servers start lazily: a run whose agent uses no MCP tool, and a session with no task, start no server', async () => {
    // A "server" that leaves a file behind when it is started, then exits.
    const marker = join(project, 'probe-started');
    const probe = {
      command: process.execPath,
      args: ['-e', 'require("fs").writeFileSync(process.argv[1], "x")', marker],
    };
    writeConfig({
      filesystem: {
        command: process.execPath,
        args: [FILESYSTEM, '${PROJECT_DIR}'],
        toolAccess: { read_text_file: 'read' },
      },
      probe,
    });
    writeAgent('plain', 'tools: read\n');
    await server.close();
    server = await startFakeClaude(() => textStep('No MCP needed.'));
    const plain = await runCliInProcess(['run', '--agent', 'plain', 'Say something'], {
      cwd: project,
      env: env(),
    });
    expect(plain.code).toBe(0);
    expect(plain.stdout.trim()).toBe('No MCP needed.');
    const session = await runCliInProcess([], { cwd: project, env: env(), input: '/agents\n' });
    expect(session.code).toBe(0);
    expect(existsSync(marker)).toBe(false);
    // The reader's tools reach the filesystem server only: the probe still never starts.
    await server.close();
    server = await startFakeClaude((request) => {
      const results = toolResultsOf(request);
      if (results.length === 0)
        return toolStep('mcp__filesystem__read_text_file', { path: join(project, 'secret-plan.txt') });
      return textStep(`The file says: ${results[0]!.content.trim()}`);
    });
    const reader = await runCliInProcess(['run', '--agent', 'reader', 'Read it'], {
      cwd: project,
      env: env(),
    });
    expect(reader.stdout.trim()).toBe('The file says: Step 1: ship the MCP client.');
    expect(existsSync(marker)).toBe(false);
    expect(serverProcesses()).toEqual([]);
  });

  it('a server that cannot start for a task: the run says so, and the model gets an error result naming it', async () => {
    writeConfig({ filesystem: { command: 'troupe-no-such-mcp-server' } });
    // The stand-in for a tool the agent names exactly is `execute` (its annotations are unknown).
    const run = await runCliInProcess(['run', '--approval', 'auto', '--agent', 'reader', 'Read it'], {
      cwd: project,
      env: env(),
    });
    expect(run.stderr).toMatch(
      /MCP server "filesystem" is unavailable, so its tools are missing: it failed to start: .*command not found/,
    );
    expect(run.stdout).toMatch(/The file says: .*MCP server "filesystem" is unavailable/);
  });

  it('troupe mcp list shows servers, state and tools with their access class', async () => {
    const run = await runCliInProcess(['mcp', 'list'], { cwd: project, env: env() });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^filesystem \(stdio, .*\.mcp\.json\) ready · \d+ tools$/m);
    expect(run.stdout).toMatch(/^ {2}mcp__filesystem__read_text_file +read$/m);
    expect(run.stdout).toMatch(/^ {2}mcp__filesystem__write_file +execute$/m);
    const json = await runCliInProcess(['mcp', 'list', '--json'], { cwd: project, env: env() });
    const listed = JSON.parse(json.stdout) as {
      servers: { name: string; state: string; tools: unknown[] }[];
    };
    expect(listed.servers[0]).toMatchObject({ name: 'filesystem', state: 'ready' });
    expect(JSON.stringify(listed)).not.toContain('PROJECT_DIR');
    expect(serverProcesses()).toEqual([]);
  });

  it('/mcp in a session lists the servers and tools; leaving the session stops them', async () => {
    const run = await runCliInProcess([], { cwd: project, env: env(), input: '/mcp\n' });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^filesystem \(stdio, .*\.mcp\.json\) ready · \d+ tools$/m);
    expect(run.stdout).toMatch(/^ {2}mcp__filesystem__read_text_file +read$/m);
    expect(serverProcesses()).toEqual([]);
  });

  it('troupe mcp list reports a server that cannot start, with exit code 1', async () => {
    writeConfig({ broken: { command: 'troupe-no-such-mcp-server' } });
    const run = await runCliInProcess(['mcp', 'list'], { cwd: project, env: env() });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/broken \(stdio, .*\) failed\n {2}it failed to start: .*command not found/);
  });

  it('troupe agents validate reports MCP servers and tools the configuration does not provide', async () => {
    writeAgent('lost', 'tools: mcp__github__create_issue, mcp__filesystem__read_txt\nmcpServers: [jira]\n');
    const run = await runCliInProcess(['agents', 'validate'], { cwd: project, env: env() });
    expect(run.stdout).toMatch(/agent "lost" names MCP server "github", which no configuration provides/);
    expect(run.stdout).toMatch(/agent "lost" names MCP server "jira", which no configuration provides/);
    expect(run.stdout).toMatch(
      /agent "lost" names MCP tool "mcp__filesystem__read_txt", which MCP server "filesystem" does not provide \(it has .*mcp__filesystem__read_text_file/,
    );
    expect(run.stdout).not.toMatch(/agent "reader"/);
    expect(serverProcesses()).toEqual([]);
  });
});
