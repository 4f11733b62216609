import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakeAnthropicServer, isMainAgent } from '../../../test/fake-anthropic/index.js';
import { cleanEnv, fixtureProject, tempDir } from './helpers/cli.js';
import { runCliInProcess } from './helpers/cli-in-process.js';
import { fakeEnv, gate, sessionScenario, startFakeClaude } from './helpers/fake-claude.js';

let server: FakeAnthropicServer;

beforeEach(async () => {
  server = await startFakeClaude(sessionScenario({ explore: gate(true) }));
});

afterEach(async () => {
  await server.close();
});

describe('troupe with piped input (not a terminal)', () => {
  it('answers each line with plain output, runs / commands, and exits at the end of input', async () => {
    const run = await runCliInProcess([], {
      cwd: fixtureProject(),
      env: cleanEnv(tempDir('home'), fakeEnv(server)),
      input: 'find the auth code\nwrite the notes\n/tasks\n',
    });
    expect(run.code).toBe(0);
    const out = run.stdout;
    expect(out).not.toContain('\x1b');
    expect(out).toContain('Not a terminal: write and execute tools (write, edit, bash) will be denied');
    expect(out).toContain('[explore] Find auth code ... started');
    expect(out).toContain('[explore] Find auth code ... grep login');
    expect(out).toMatch(/\[explore\] Find auth code - done \(1 tool, /);
    expect(out).toContain('Summary: login is in src/auth.js');
    // Denied without a question (nothing waits for input).
    expect(out).toMatch(/Summary: Could not write notes\.txt: Permission to run write was denied/);
    expect(out).not.toContain('Approve?');
    expect(out).toMatch(/ID\s+AGENT\s+DESCRIPTION\s+STATUS\s+TOOLS\s+TIME\s+TOKENS/);
    expect(out.indexOf('Summary: login')).toBeLessThan(out.indexOf('Summary: Could not write'));
  });

  it('asks approvals on stdin with --approval ask', async () => {
    const project = fixtureProject();
    const run = await runCliInProcess(['--approval', 'ask'], {
      cwd: project,
      env: cleanEnv(tempDir('home'), fakeEnv(server)),
      input: 'write the notes\ny\n',
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(
      'Approval needed: [general-purpose] Write notes file wants to run write (write)',
    );
    expect(run.stdout).toContain(
      'Approve? [y]es / [n]o / [a]lways allow write / [p] always allow Edit(notes.txt) this session:',
    );
    expect(run.stdout).toContain('Approved write.');
    expect(run.stdout).toContain('Summary: Wrote notes.txt.');
  });

  it('says which unfinished tasks it cancels at the end of input', async () => {
    server.setHandler(sessionScenario({ explore: gate() }));
    const run = await runCliInProcess([], {
      cwd: fixtureProject(),
      env: cleanEnv(tempDir('home'), fakeEnv(server)),
      input: 'search in the background\n',
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/Summary: Started task t_\S+ in the background/);
    expect(run.stdout).toContain(
      'Cancelled 1 unfinished task of this session on exit: [explore] Search in the background.',
    );
  });
});

describe('/agents create and delete in a session', () => {
  it('drafts an agent from one line, offers it from the next message, and deletes it', async () => {
    const project = fixtureProject();
    const run = await runCliInProcess([], {
      cwd: project,
      env: cleanEnv(tempDir('home'), fakeEnv(server)),
      input:
        '/agents create reviews SQL migrations for safety\ny\nhello\n/agents show migration-reviewer\n/agents delete migration-reviewer\ny\n/agents\n',
    });
    expect(run.code).toBe(0);
    const file = join(project, '.troupe', 'agents', 'migration-reviewer.md');
    // The drafted file is shown before it is written.
    expect(run.stdout).toContain(`New agent file ${file}:`);
    expect(run.stdout).toContain('│ name: "migration-reviewer"');
    expect(run.stdout).toContain('Write it? [y]es / [n]o:');
    expect(run.stdout).toContain(`Created agent "migration-reviewer" in ${file}.`);
    expect(run.stdout).toContain('tools: read, grep');
    expect(run.stdout).toContain(`Delete agent "migration-reviewer": ${file} (project)?`);
    expect(run.stdout).toContain(`Deleted agent "migration-reviewer" (${file}).`);
    expect(existsSync(file)).toBe(false);
    // The message after the creation went to a main agent whose task tool offers the new agent.
    const main = server.requests.filter(isMainAgent);
    const task = main.at(-1)!.body.tools.find((tool: { name: string }) => tool.name === 'task');
    expect(task.description).toContain('migration-reviewer');
    expect(task.input_schema.properties.subagent_type.enum).toContain('migration-reviewer');
    // After the deletion it is gone from the list.
    expect(run.stdout.slice(run.stdout.lastIndexOf('NAME'))).not.toContain('migration-reviewer');
  });

  it('creates an agent step by step from answered questions', async () => {
    const project = fixtureProject();
    const run = await runCliInProcess([], {
      cwd: project,
      env: cleanEnv(tempDir('home'), fakeEnv(server)),
      input:
        '/agents create\nShop Helper\nshop-helper\n\nAnswers questions about the shop\nread, webfetch\nread, grep\nhaiku\nYou answer questions about the shop.\ny\n',
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Name (lowercase-with-hyphens):');
    // Each invalid answer is explained and its question asked again; the wizard goes on.
    expect(run.stdout).toContain('"Shop Helper" is not a valid agent name; try "shop-helper".');
    expect(run.stdout).toContain('Say in a sentence when the main agent should use it.');
    expect(run.stdout).toContain('Unknown tool: webfetch. Choose from read, glob');
    const file = join(project, '.troupe', 'agents', 'shop-helper.md');
    expect(run.stdout).toContain(`Created agent "shop-helper" in ${file}.`);
    expect(readFileSync(file, 'utf8')).toBe(
      '---\nname: "shop-helper"\ndescription: "Answers questions about the shop"\ntools: ["read", "grep"]\nmodel: "haiku"\n---\n\nYou answer questions about the shop.\n',
    );
  });

  it('writes nothing when the shown file is declined, and deletes nothing unless confirmed', async () => {
    const project = fixtureProject();
    mkdirSync(join(project, '.troupe', 'agents'), { recursive: true });
    const explore = join(project, '.troupe', 'agents', 'explore.md');
    writeFileSync(explore, '---\nname: explore\ndescription: The project explorer\n---\nExplore.\n');
    const run = await runCliInProcess([], {
      cwd: project,
      env: cleanEnv(tempDir('home'), fakeEnv(server)),
      input: '/agents create reviews SQL migrations for safety\nn\n/agents delete explore\nn\n',
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('No agent created.');
    expect(existsSync(join(project, '.troupe', 'agents', 'migration-reviewer.md'))).toBe(false);
    expect(run.stdout).toContain(`Delete agent "explore": ${explore} (project)?`);
    expect(run.stdout).toContain(
      'It shadows the built-in agent "explore", which is used again once this file is gone.',
    );
    expect(run.stdout).toContain('Nothing deleted.');
    expect(existsSync(explore)).toBe(true);
  });
});
