import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cleanEnv, fixtureProject, tempDir } from './helpers/cli.js';
import { runCliInProcess } from './helpers/cli-in-process.js';

const REVIEWER = `---
name: shop-reviewer
description: Reviews the shop's code
tools: Read, Grep
model: haiku
---
You review code.
`;

function projectWithAgents(): string {
  const project = fixtureProject();
  mkdirSync(join(project, '.claude', 'agents'), { recursive: true });
  writeFileSync(join(project, '.claude', 'agents', 'shop-reviewer.md'), REVIEWER);
  return project;
}

describe('troupe agents', () => {
  it('lists project and built-in agents with source, model and tools', async () => {
    const run = await runCliInProcess(['agents', 'list'], {
      cwd: projectWithAgents(),
      env: cleanEnv(tempDir('home')),
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/NAME\s+SOURCE\s+MODEL\s+TOOLS/);
    expect(run.stdout).toMatch(/shop-reviewer\s+project\s+haiku\s+Read, Grep/);
    expect(run.stdout).toMatch(/general-purpose\s+built-in\s+inherit\s+all tools/);
    const json = await runCliInProcess(['agents', 'list', '--json'], {
      cwd: projectWithAgents(),
      env: cleanEnv(tempDir('home')),
    });
    const names = (JSON.parse(json.stdout) as { name: string }[]).map((agent) => agent.name);
    expect(names).toEqual(
      expect.arrayContaining(['shop-reviewer', 'explore', 'plan', 'codebase-investigator']),
    );
  });

  it('shows one agent in full, found by any case or seed alias', async () => {
    const run = await runCliInProcess(['agents', 'show', 'Explore'], {
      cwd: fixtureProject(),
      env: cleanEnv(tempDir('home')),
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('name: explore');
    expect(run.stdout).toContain('source: built-in');
    expect(run.stdout).toContain('tools: read, glob, grep, ls');
    expect(run.stdout).toMatch(/prompt:\n {2}You are a fast, read-only code search specialist/);
    const missing = await runCliInProcess(['agents', 'show', 'nobody'], {
      cwd: fixtureProject(),
      env: cleanEnv(tempDir('home')),
    });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^troupe: No agent named "nobody"/);
  });

  it('validate reports every problem in a folder, with files and lines (exit 1)', async () => {
    const dir = tempDir('agents');
    writeFileSync(join(dir, 'good.md'), REVIEWER.replace('Read, Grep', 'Read, Grep, WebFetch'));
    writeFileSync(join(dir, 'no-front-matter.md'), 'Just a prompt.\n');
    writeFileSync(join(dir, 'broken.json'), '{"name": "x", ');
    writeFileSync(join(dir, 'odd.md'), '---\nname: Odd Name\ndescription: Use: when odd\n---\nBody\n');
    writeFileSync(join(dir, 'README.md'), '# not an agent\n');
    const run = await runCliInProcess(['agents', 'validate', dir], {
      cwd: fixtureProject(),
      env: cleanEnv(tempDir('home')),
    });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(`error    ${join(dir, 'no-front-matter.md')}:1: no front matter found`);
    expect(run.stdout).toContain(`error    ${join(dir, 'broken.json')}:1: not valid JSON`);
    expect(run.stdout).toContain(
      `${join(dir, 'good.md')}:4: agent "shop-reviewer" lists tool WebFetch, which troupe does not have`,
    );
    expect(run.stdout).toMatch(/warning {2}.*odd\.md:2: name "Odd Name" is not lowercase-with-hyphens/);
    expect(run.stdout).toMatch(/4 files checked: 2 agents usable, 2 errors, \d+ warnings\./);
  });

  it('a broken tools list loses no tool, and plain validate names it and every unknown tool, once', async () => {
    const project = fixtureProject();
    const file = join(project, '.claude', 'agents', 'lister.md');
    mkdirSync(join(project, '.claude', 'agents'), { recursive: true });
    writeFileSync(
      file,
      '---\nname: lister\ndescription: Lists things\ntools: [read, grep, WebFetch, WebSearch\n---\nList.\n',
    );
    const env = cleanEnv(tempDir('home'));
    const shown = await runCliInProcess(['agents', 'show', 'lister', '--json'], { cwd: project, env });
    expect(JSON.parse(shown.stdout).tools).toEqual(['read', 'grep', 'WebFetch', 'WebSearch']);
    const run = await runCliInProcess(['agents', 'validate'], { cwd: project, env });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`${file}:4: 'tools' is a list that is not valid YAML`);
    const unknown = `${file}:4: agent "lister" lists tools WebFetch, WebSearch, which troupe does not have`;
    expect(run.stdout.split(unknown)).toHaveLength(2);
  });

  it('validate passes (exit 0) on a folder of good files, and reads a .claude/agents folder', async () => {
    const project = projectWithAgents();
    const run = await runCliInProcess(['agents', 'validate', '.claude/agents'], {
      cwd: project,
      env: cleanEnv(tempDir('home')),
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('1 file checked: 1 agent usable, 0 errors, 0 warnings.');
  });
});
