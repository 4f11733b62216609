import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseAgentFile } from '../../../core/src/definitions/parse-agent-file.js';
import { DefinitionError } from '../../../core/src/errors.js';
import { createAgentFile, deleteAgentFile } from './agent-files.js';
import { loadAgentDirectories } from './load-agent-directories.js';

let root: string;
let dir: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'troupe-agent-files-'));
  dir = join(root, '.troupe', 'agents');
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function rejection(promise: Promise<unknown>): Promise<DefinitionError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(DefinitionError);
    return error as DefinitionError;
  }
  throw new Error('expected a rejection');
}

describe('createAgentFile', () => {
  it('shows the file to confirm first, and writes nothing when declined', async () => {
    const shown: string[] = [];
    const declined = await createAgentFile({
      dir,
      name: 'helper',
      description: 'Helps.',
      prompt: 'Help.',
      confirm: ({ text }) => {
        shown.push(text);
        return false;
      },
    });
    expect(declined.written).toBe(false);
    expect(shown[0]).toContain('name: "helper"');
    await expect(readdir(dir)).rejects.toThrow(/ENOENT/);
    const accepted = await createAgentFile({
      dir,
      name: 'helper',
      description: 'Helps.',
      prompt: 'Help.',
      confirm: async () => true,
    });
    expect(accepted.written).toBe(true);
    expect(await readFile(accepted.path, 'utf8')).toBe(shown[0]);
  });

  it('writes quoted front matter that parses back exactly, even for awkward text', async () => {
    const description = 'Reviews code. Triggers on: "review", *PRs*, # tags, \'quotes\' and 日本語.';
    const prompt = '---\nYou review code.\n\n- key: value\n';
    const { path, definition } = await createAgentFile({
      dir,
      name: 'my-reviewer',
      description,
      tools: ['read', 'grep', 'Bash(git diff:*)'],
      model: 'haiku',
      prompt,
    });
    expect(path).toBe(join(dir, 'my-reviewer.md'));
    const text = await readFile(path, 'utf8');
    expect(text.startsWith('---\nname: "my-reviewer"\ndescription: "Reviews code.')).toBe(true);
    const parsed = parseAgentFile(text, { path });
    expect(parsed.warnings).toEqual([]);
    expect(parsed.definition).toEqual({
      name: 'my-reviewer',
      description,
      tools: ['read', 'grep', 'Bash(git diff:*)'],
      model: 'haiku',
      systemPrompt: prompt.trim(),
      path,
    });
    expect(definition).toEqual(parsed.definition);
    const registry = await loadAgentDirectories({ cwd: root, home: join(root, 'nohome'), builtinDir: false });
    expect(registry.get('my-reviewer')).toMatchObject({ source: 'project', description });
  });

  it('omits tools for an agent with every tool', async () => {
    const { definition } = await createAgentFile({
      dir,
      name: 'helper',
      description: 'Helps.',
      prompt: 'Help.',
    });
    expect(definition.tools).toBeUndefined();
    expect(await readFile(join(dir, 'helper.md'), 'utf8')).not.toContain('tools:');
  });

  it('refuses to overwrite a file, or to add a second definition of the same name', async () => {
    await createAgentFile({ dir, name: 'helper', description: 'First.', prompt: 'One.' });
    const again = await rejection(
      createAgentFile({ dir, name: 'helper', description: 'Second.', prompt: 'Two.' }),
    );
    expect(again.message).toContain('already exists');
    expect(await readFile(join(dir, 'helper.md'), 'utf8')).toContain('First.');

    await writeFile(join(dir, 'other-file.md'), '---\nname: sneaky\ndescription: d\n---\np\n');
    const duplicate = await rejection(
      createAgentFile({ dir, name: 'sneaky', description: 'New.', prompt: 'p' }),
    );
    expect(duplicate.message).toContain(`already exists in ${join(dir, 'other-file.md')}`);
    expect((await readdir(dir)).sort()).toEqual(['helper.md', 'other-file.md']);
  });

  it('refuses a bad name, an empty description or prompt, and a model that would not read back', async () => {
    expect(
      (await rejection(createAgentFile({ dir, name: 'My Agent', description: 'd', prompt: 'p' }))).message,
    ).toContain("e.g. 'my-agent'");
    expect(
      (await rejection(createAgentFile({ dir, name: '../escape', description: 'd', prompt: 'p' }))).field,
    ).toBe('name');
    expect((await rejection(createAgentFile({ dir, name: 'a', description: '  ', prompt: 'p' }))).field).toBe(
      'description',
    );
    expect((await rejection(createAgentFile({ dir, name: 'a', description: 'd', prompt: '' }))).field).toBe(
      'prompt',
    );
    const model = await rejection(
      createAgentFile({ dir, name: 'a', description: 'd', prompt: 'p', model: 'Claude Opus 4' }),
    );
    expect(model.message).toContain('does not read back');
    await expect(readdir(dir)).rejects.toThrow();
  });
});

describe('deleteAgentFile', () => {
  it('deletes the file that defines the agent', async () => {
    await createAgentFile({ dir, name: 'helper', description: 'Helps.', prompt: 'Help.' });
    await createAgentFile({ dir, name: 'keeper', description: 'Stays.', prompt: 'Stay.' });
    expect(await deleteAgentFile({ dir, name: 'helper' })).toEqual({ path: join(dir, 'helper.md') });
    expect(await readdir(dir)).toEqual(['keeper.md']);
  });

  it('finds an agent whose file name differs, including JSON files', async () => {
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'electorn-pro.md'), '---\nname: electron-pro\ndescription: d\n---\np\n');
    await writeFile(join(dir, 'j.json'), '{"name":"json-agent","description":"d","prompt":"p"}');
    expect((await deleteAgentFile({ dir, name: 'electron-pro' })).path).toBe(join(dir, 'electorn-pro.md'));
    expect((await deleteAgentFile({ dir, name: 'json-agent' })).path).toBe(join(dir, 'j.json'));
    expect(await readdir(dir)).toEqual([]);
  });

  it('never deletes a file named like the agent that defines another one, or a broken file', async () => {
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'helper.md'), '---\nname: someone-else\ndescription: d\n---\np\n');
    await writeFile(join(dir, 'broken.md'), 'no front matter');
    const missing = await rejection(deleteAgentFile({ dir, name: 'helper' }));
    expect(missing.code).toBe('DEFINITION_NOT_FOUND');
    expect((await rejection(deleteAgentFile({ dir, name: 'broken' }))).code).toBe('DEFINITION_NOT_FOUND');
    expect((await readdir(dir)).sort()).toEqual(['broken.md', 'helper.md']);
    expect((await rejection(deleteAgentFile({ dir: join(root, 'none'), name: 'x' }))).message).toContain(
      'No agent named',
    );
  });

  it('refuses when several files define the agent and none is named after it', async () => {
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'a.md'), '---\nname: twin\ndescription: d\n---\np\n');
    await writeFile(join(dir, 'b.md'), '---\nname: twin\ndescription: d\n---\np\n');
    expect((await rejection(deleteAgentFile({ dir, name: 'twin' }))).message).toContain('Several files');
    await writeFile(join(dir, 'twin.md'), '---\nname: twin\ndescription: d\n---\np\n');
    expect((await deleteAgentFile({ dir, name: 'twin' })).path).toBe(join(dir, 'twin.md'));
  });
});
