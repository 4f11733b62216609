import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DefinitionError } from '../../../core/src/errors.js';
import { agentDirectories, loadAgentDirectories } from './load-agent-directories.js';

const agentFile = (name: string, description: string, body = `You are ${name}.`) =>
  `---\nname: ${name}\ndescription: ${description}\n---\n${body}\n`;

let root: string;
let cwd: string;
let home: string;
let builtin: string;

async function put(path: string, text: string) {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, text);
}

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'troupe-agents-'));
  cwd = join(root, 'project');
  home = join(root, 'home');
  builtin = join(root, 'builtin');
  await mkdir(cwd, { recursive: true });
  await mkdir(home, { recursive: true });
  await put(join(builtin, 'explore.md'), agentFile('explore', 'Built-in explorer.'));
  await put(join(builtin, 'plan.md'), agentFile('plan', 'Built-in planner.'));
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('loadAgentDirectories', () => {
  it('reads the folders in precedence order: project, user, built-in', () => {
    expect(agentDirectories({ cwd: '/p', home: '/h', builtinDir: '/b' })).toEqual([
      { dir: join('/p', '.troupe', 'agents'), source: 'project', base: '/p' },
      { dir: join('/p', '.claude', 'agents'), source: 'project', base: '/p' },
      { dir: join('/h', '.troupe', 'agents'), source: 'user', base: '/h' },
      { dir: join('/h', '.claude', 'agents'), source: 'user', base: '/h' },
      { dir: '/b', source: 'builtin' },
    ]);
    expect(agentDirectories({ cwd: '/p', home: '/h', builtinDir: false })).toHaveLength(4);
  });

  it('lets a project agent override a built-in one and reports the shadowed file', async () => {
    await put(join(cwd, '.claude', 'agents', 'explore.md'), agentFile('explore', 'Project explorer.'));
    const registry = await loadAgentDirectories({ cwd, home, builtinDir: builtin });
    expect(registry.get('explore')).toMatchObject({
      description: 'Project explorer.',
      source: 'project',
      path: join(cwd, '.claude', 'agents', 'explore.md'),
    });
    expect(registry.get('plan')!.source).toBe('builtin');
    expect(registry.shadowed()).toMatchObject([
      {
        name: 'explore',
        kept: { source: 'project' },
        shadowed: { source: 'builtin', path: join(builtin, 'explore.md') },
      },
    ]);
    expect(registry.problems()).toEqual([]);
  });

  it('ranks .troupe over .claude, project over user, and code over everything', async () => {
    await put(join(cwd, '.troupe', 'agents', 'x.md'), agentFile('x', 'troupe project'));
    await put(join(cwd, '.claude', 'agents', 'x.md'), agentFile('x', 'claude project'));
    await put(join(home, '.troupe', 'agents', 'x.md'), agentFile('x', 'troupe user'));
    await put(join(home, '.claude', 'agents', 'y.md'), agentFile('y', 'claude user'));
    const registry = await loadAgentDirectories({ cwd, home, builtinDir: builtin });
    expect(registry.get('x')!.description).toBe('troupe project');
    expect(registry.get('y')!.source).toBe('user');
    expect(registry.shadowed().map((s) => s.shadowed.description)).toEqual(['claude project', 'troupe user']);

    const withCode = await loadAgentDirectories({
      cwd,
      home,
      builtinDir: builtin,
      agents: [{ name: 'x', description: 'from code', systemPrompt: 'p' }],
    });
    expect(withCode.get('x')).toMatchObject({ description: 'from code', source: 'code' });
  });

  it('keeps loading after a bad file, and lists every problem with its file', async () => {
    const dir = join(cwd, '.claude', 'agents');
    await put(join(dir, 'a-good.md'), agentFile('a-good', 'Fine.'));
    await put(join(dir, 'b-plain.md'), '# No front matter here\n');
    await put(join(dir, 'c-bad.md'), '---\nname: c-bad\ndescription: d\nmaxTurns: lots\n---\np\n');
    await put(join(dir, 'd-broken.json'), '{ "name": "d", ');
    await put(join(dir, 'e-good.md'), agentFile('e-good', 'Also fine.'));
    const registry = await loadAgentDirectories({ cwd, home, builtinDir: false });
    expect(registry.names()).toEqual(['a-good', 'e-good']);
    const problems = registry.problems();
    expect(problems.map((p) => p.file)).toEqual([
      join(dir, 'b-plain.md'),
      join(dir, 'c-bad.md'),
      join(dir, 'd-broken.json'),
    ]);
    expect(problems.every((p) => p.source === 'project' && p.error instanceof DefinitionError)).toBe(true);
    expect(problems[0]!.message).toContain('no front matter found');
    expect(problems[1]).toMatchObject({ line: 4, field: 'maxTurns' });
  });

  it('reads JSON files, subfolders, BOM + CRLF files; skips README.md and dot files', async () => {
    const dir = join(home, '.claude', 'agents');
    await put(
      join(dir, 'reviewer.json'),
      JSON.stringify({ name: 'reviewer', description: 'Reviews.', tools: ['read'], prompt: 'Review.' }),
    );
    await put(join(dir, 'team', 'nested.md'), agentFile('nested', 'In a subfolder.'));
    await put(
      join(dir, 'windows.md'),
      '\uFEFF---\r\nname: windows\r\ndescription: CRLF and BOM.\r\n---\r\nHi.\r\n',
    );
    await put(join(dir, 'README.md'), '# About these agents\n');
    await put(join(dir, '.draft.md'), agentFile('draft', 'Hidden.'));
    const registry = await loadAgentDirectories({ cwd, home, builtinDir: false });
    expect(registry.names()).toEqual(['nested', 'reviewer', 'windows']);
    expect(registry.get('reviewer')).toMatchObject({
      tools: ['read'],
      systemPrompt: 'Review.',
      source: 'user',
    });
    expect(registry.get('windows')!.systemPrompt).toBe('Hi.');
    expect(registry.problems()).toEqual([]);
  });

  it('collects parse warnings', async () => {
    await put(join(cwd, '.troupe', 'agents', 'odd.md'), '---\ndescription: Triggers on: x\n---\np\n');
    const registry = await loadAgentDirectories({ cwd, home, builtinDir: false });
    expect(registry.get('odd')!.description).toBe('Triggers on: x');
    expect(registry.warnings().map((w) => w.kind)).toEqual(['yaml-repaired', 'name-from-file']);
  });

  it('reads a folder once when cwd is home, and reports a file where a folder should be', async () => {
    await put(join(home, '.claude', 'agents', 'x.md'), agentFile('x', 'Once.'));
    const same = await loadAgentDirectories({ cwd: home, home, builtinDir: false });
    expect(same.get('x')!.source).toBe('project');
    expect(same.shadowed()).toEqual([]);

    await put(join(cwd, '.troupe', 'agents'), 'not a folder');
    const registry = await loadAgentDirectories({ cwd, home, builtinDir: false });
    expect(registry.problems()).toMatchObject([{ file: join(cwd, '.troupe', 'agents'), source: 'project' }]);
    expect(registry.problems()[0]!.message).toContain('expected a folder');
  });

  it('records an invalid code definition as a problem instead of failing', async () => {
    const registry = await loadAgentDirectories({
      cwd,
      home,
      builtinDir: builtin,
      agents: [{ name: 'Bad Name', description: 'd', systemPrompt: 'p' }],
    });
    expect(registry.problems()).toMatchObject([{ source: 'code', field: 'name' }]);
    expect(registry.names()).toEqual(['explore', 'plan']);
  });
});
