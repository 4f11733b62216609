// Issue #14, item 11: agent files come from the internet. An alias bomb, a huge file or a link out
// of the agent folder must not exhaust or escape the loader: each is reported (naming the file)
// and the other agents still load.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseAgentFile } from '@troupe/core';
import { loadAgentDirectories } from '@troupe/node';
import { afterEach, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from './helpers.js';

let sandbox: Sandbox | undefined;
afterEach(async () => {
  await sandbox?.cleanup();
  sandbox = undefined;
});

const good = '---\nname: good\ndescription: A fine agent.\n---\nWork.\n';

/** A few hundred bytes of YAML whose aliases expand to 10^8 strings. */
function aliasBomb(): string {
  const lines = ['a0: &a0 ["x","x","x","x","x","x","x","x","x","x"]'];
  for (let level = 1; level <= 7; level++) {
    const ref = `*a${level - 1}`;
    lines.push(`a${level}: &a${level} [${Array(10).fill(ref).join(',')}]`);
  }
  return ['---', 'name: bomb', 'description: d', ...lines, 'payload: *a7', '---', 'Prompt.'].join('\n');
}

async function load(root: string) {
  return loadAgentDirectories({ cwd: root, home: join(root, 'no-home'), builtinDir: false });
}

describe('agent files cannot exhaust the loader', () => {
  it('a 500-byte YAML alias bomb (10^8 elements) is refused at once, naming the file', () => {
    const text = aliasBomb();
    expect(text.length).toBeLessThan(700);
    const start = performance.now();
    expect(() => parseAgentFile(text, { path: 'bomb.md' })).toThrow(/bomb\.md.*expands to more than/);
    expect(performance.now() - start).toBeLessThan(2_000);
  });

  it('the alias bomb in a folder is a problem of that file; the other agents load', async () => {
    sandbox = await createSandbox({ '.claude/agents/bomb.md': aliasBomb(), '.claude/agents/good.md': good });
    const registry = await load(sandbox.root);
    expect(registry.get('good')).toBeDefined();
    expect(
      registry
        .problems()
        .map((problem) => problem.message)
        .join('\n'),
    ).toMatch(/bomb\.md.*expands/);
  });

  it('an agent file larger than the limit is reported, not read', async () => {
    sandbox = await createSandbox({
      '.claude/agents/huge.md': `---\nname: huge\ndescription: ${'x'.repeat(3 * 1024 * 1024)}\n---\nHi.\n`,
      '.claude/agents/good.md': good,
    });
    const registry = await load(sandbox.root);
    expect(registry.get('good')).toBeDefined();
    expect(registry.get('huge')).toBeUndefined();
    expect(
      registry
        .problems()
        .map((problem) => problem.message)
        .join('\n'),
    ).toMatch(/huge\.md.*larger than/);
  });

  it('a link to / inside .claude/agents is not walked; it is reported', async () => {
    sandbox = await createSandbox({ '.claude/agents/good.md': good });
    await sandbox.link('.claude/agents/x', '/');
    await sandbox.link('.claude/agents/secret.md', join(sandbox.outside, 'secret.txt'));
    const start = performance.now();
    const registry = await load(sandbox.root);
    expect(performance.now() - start).toBeLessThan(5_000);
    expect(registry.get('good')).toBeDefined();
    const problems = registry
      .problems()
      .map((problem) => problem.message)
      .join('\n');
    expect(problems).toMatch(/agents[\\/]x: .*outside the agent folder/);
    expect(problems).toMatch(/secret\.md: .*outside the agent folder/);
  });

  it('a link to a file inside the agent folder still loads', async () => {
    sandbox = await createSandbox({ '.claude/agents/real/good.md': good });
    await mkdir(join(sandbox.root, '.claude/agents/alias'), { recursive: true });
    await sandbox.link('.claude/agents/alias/linked.md', join(sandbox.root, '.claude/agents/real/good.md'));
    await writeFile(join(sandbox.root, '.claude/agents/other.md'), good.replace('good', 'other'));
    const registry = await load(sandbox.root);
    expect(registry.get('other')).toBeDefined();
    expect(registry.problems()).toEqual([]);
  });
});
