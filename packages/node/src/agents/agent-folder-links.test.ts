// Issue #21, item 7: `.claude/agents` that was itself a link to `/` loaded 1,134 "agents" from
// across the disk. An agent folder that leads out of the project (project folders) or out of the
// home folder (user folders) is not read, and the problem names it.
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadAgentDirectories } from './load-agent-directories.js';

const agentFile = (name: string) =>
  `---\nname: ${name}\ndescription: The ${name} agent.\n---\nYou are ${name}.\n`;

let root: string;
let cwd: string;
let home: string;
let elsewhere: string;

async function put(path: string, text: string) {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, text);
}

async function link(path: string, target: string) {
  await mkdir(dirname(path), { recursive: true });
  await symlink(target, path);
}

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'troupe-agent-links-'));
  cwd = join(root, 'project');
  home = join(root, 'home');
  elsewhere = join(root, 'elsewhere');
  await mkdir(cwd, { recursive: true });
  await mkdir(home, { recursive: true });
  await put(join(elsewhere, 'agents', 'stranger.md'), agentFile('stranger'));
  await put(join(elsewhere, 'agents', 'deep', 'other.md'), agentFile('other'));
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const load = () => loadAgentDirectories({ cwd, home, builtinDir: false });
const messages = async () =>
  (await load())
    .problems()
    .map((problem) => problem.message)
    .join('\n');

describe('agent folders that are links', () => {
  it('does not read a project .claude/agents that links to /', async () => {
    await link(join(cwd, '.claude', 'agents'), '/');
    const registry = await load();
    expect(registry.list()).toEqual([]);
    expect(await messages()).toContain(
      `${join(cwd, '.claude', 'agents')}: is a link to /, outside the project`,
    );
  });

  it('does not read a project agent folder that links out of the project', async () => {
    await link(join(cwd, '.troupe', 'agents'), join(elsewhere, 'agents'));
    const registry = await load();
    expect(registry.get('stranger')).toBeUndefined();
    expect(registry.get('other')).toBeUndefined();
    expect(await messages()).toContain(
      `${join(cwd, '.troupe', 'agents')}: is a link to ${join(elsewhere, 'agents')}, outside the project`,
    );
  });

  it('does not read a project agent folder whose parent (.claude) links out of the project', async () => {
    await link(join(cwd, '.claude'), elsewhere);
    expect((await load()).get('stranger')).toBeUndefined();
    expect(await messages()).toMatch(
      /\.claude[/\\]agents: leads through a link to .*elsewhere.*outside the project/,
    );
  });

  it('does not read a user agent folder that links out of the home folder', async () => {
    await link(join(home, '.claude', 'agents'), join(elsewhere, 'agents'));
    expect((await load()).get('stranger')).toBeUndefined();
    expect(await messages()).toContain(
      `${join(home, '.claude', 'agents')}: is a link to ${join(elsewhere, 'agents')}, outside the home folder`,
    );
  });

  it('reads a folder that links inside its own project or home (shared folders, dotfiles)', async () => {
    await put(join(cwd, 'shared-agents', 'helper.md'), agentFile('helper'));
    await link(join(cwd, '.claude', 'agents'), '../shared-agents');
    await put(join(home, 'dotfiles', 'agents', 'mine.md'), agentFile('mine'));
    await link(join(home, '.troupe', 'agents'), join(home, 'dotfiles', 'agents'));
    const registry = await load();
    expect(registry.get('helper')?.source).toBe('project');
    expect(registry.get('mine')?.source).toBe('user');
    expect(registry.problems()).toEqual([]);
  });

  it('does not read an agent file that links out of its folder', async () => {
    await put(join(cwd, '.claude', 'agents', 'fine.md'), agentFile('fine'));
    await link(join(cwd, '.claude', 'agents', 'stranger.md'), join(elsewhere, 'agents', 'stranger.md'));
    const registry = await load();
    expect(registry.get('fine')).toBeDefined();
    expect(registry.get('stranger')).toBeUndefined();
    expect(await messages()).toMatch(/stranger\.md: is a link to .*, outside the agent folder; not followed/);
  });
});
