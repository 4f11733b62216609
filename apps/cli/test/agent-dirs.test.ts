import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cleanEnv, fixtureProject, tempDir } from './helpers/cli.js';
import { runCliInProcess } from './helpers/cli-in-process.js';

/** A project laid out for three other sub-agent systems at once. */
function projectOfOtherTools(): string {
  const project = fixtureProject();
  const write = (path: string, text: string) => {
    mkdirSync(join(project, path, '..'), { recursive: true });
    writeFileSync(join(project, path), text);
  };
  write(
    '.agent/agents/test-writer.md',
    '---\ndescription: Writes tests\ntools: Read, Write\n---\nWrite tests.\n',
  );
  write(
    '.blade/agents/db-expert.md',
    '---\nname: db-expert\ndescription: Knows the database\nmodel: sonnet\nmax_turns: 15\ntools: Read, Grep, Glob\n---\nAnswer database questions.\n',
  );
  write(
    '.mini-cc/agents/reviewer.json',
    JSON.stringify({
      name: 'reviewer',
      description: 'Reviews code',
      tools: ['bash', 'read'],
      prompt: 'Review the code.',
    }),
  );
  return project;
}

describe('agent folders of other tools', () => {
  it('--agents-dir (repeatable) reads .agent/agents, .blade/agents and .mini-cc/agents as they are', async () => {
    const project = projectOfOtherTools();
    const run = await runCliInProcess(
      [
        'agents',
        'list',
        '--json',
        '--agents-dir',
        '.agent/agents',
        '--agents-dir',
        '.blade/agents',
        '--agents-dir',
        '.mini-cc/agents',
      ],
      { cwd: project, env: cleanEnv(tempDir('home')) },
    );
    expect(run.stderr).toBe('');
    const agents = JSON.parse(run.stdout) as {
      name: string;
      source: string;
      path: string;
      tools: string[];
    }[];
    const byName = new Map(agents.map((agent) => [agent.name, agent]));
    expect(byName.get('test-writer')).toMatchObject({ source: 'project', tools: ['Read', 'Write'] });
    expect(byName.get('test-writer')!.path).toBe(join(project, '.agent', 'agents', 'test-writer.md'));
    expect(byName.get('db-expert')).toMatchObject({ source: 'project', tools: ['Read', 'Grep', 'Glob'] });
    expect(byName.get('reviewer')).toMatchObject({ source: 'project', tools: ['bash', 'read'] });
  }, 40_000);

  it('agentDirs in .troupe/config.json does the same; a missing folder is one clear line', async () => {
    const project = projectOfOtherTools();
    mkdirSync(join(project, '.troupe'), { recursive: true });
    writeFileSync(
      join(project, '.troupe', 'config.json'),
      JSON.stringify({ agentDirs: ['.blade/agents', '.mini-cc/agents'] }),
    );
    const env = cleanEnv(tempDir('home'));
    const run = await runCliInProcess(['agents', 'show', 'db-expert', '--json'], { cwd: project, env });
    expect(JSON.parse(run.stdout)).toMatchObject({ name: 'db-expert', maxTurns: 15 });
    const missing = await runCliInProcess(['agents', 'list', '--agents-dir', 'nowhere'], {
      cwd: project,
      env,
    });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe(
      `troupe: The agents folder ${join(project, 'nowhere')} does not exist (from --agents-dir or agentDirs in the config file).\n`,
    );
  }, 40_000);

  it('a project agent folder that links out of the project is skipped with a line naming it; the rest loads', async () => {
    const project = projectOfOtherTools();
    mkdirSync(join(project, '.claude'), { recursive: true });
    symlinkSync('/', join(project, '.claude', 'agents'));
    const env = cleanEnv(tempDir('home'));
    const run = await runCliInProcess(['agents', 'list', '--json', '--agents-dir', '.blade/agents'], {
      cwd: project,
      env,
    });
    expect(run.code).toBe(0);
    const names = (JSON.parse(run.stdout) as { name: string }[]).map((agent) => agent.name);
    expect(names).toContain('db-expert');
    expect(names).toContain('explore');
    expect(names.length).toBeLessThan(20);
    const validate = await runCliInProcess(['agents', 'validate'], { cwd: project, env });
    expect(validate.stdout + validate.stderr).toMatch(
      /\.claude\/agents: is a link to \/, outside the project .*; not followed/,
    );
  }, 40_000);
});
