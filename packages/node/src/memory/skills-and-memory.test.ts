import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRuntime, parseAgentFile } from '@troupe/core';
import { scriptedModel, textReply, toolCallsReply, turnOf } from '@troupe/core/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadSkills } from '../skills/load-skills.js';
import { createNodeTools } from '../tools/create-node-tools.js';
import { agentMemoryFolder, createAgentMemory } from './agent-memory.js';

let cwd: string;
let home: string;
beforeEach(async () => {
  cwd = await mkdtemp(join(tmpdir(), 'troupe-project-'));
  home = await mkdtemp(join(tmpdir(), 'troupe-home-'));
});
afterEach(async () => {
  await rm(cwd, { recursive: true, force: true });
  await rm(home, { recursive: true, force: true });
});

const write = (path: string, text: string) => {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
};

describe('skills from the skill folders', () => {
  it("a listed skill's text reaches the first model request; the project's shadows the user's", async () => {
    write(
      join(cwd, '.claude/skills/release-notes/SKILL.md'),
      '---\nname: release-notes\ndescription: How we write release notes.\n---\nLead with the user-visible change.\n',
    );
    write(join(home, '.claude/skills/release-notes/SKILL.md'), '---\ndescription: Old.\n---\nOld text.\n');
    write(join(home, '.troupe/skills/tone/SKILL.md'), 'No front matter: be brief.\n');
    const loaded = await loadSkills({ cwd, home });
    expect(loaded.skills.map((skill) => skill.name).sort()).toEqual(['release-notes', 'tone']);
    expect(loaded.warnings.join('\n')).toContain('is shadowed by');
    expect(loaded.warnings.join('\n')).toContain('The whole file is used as skill "tone"');
    const { definition } = parseAgentFile(
      '---\nname: writer\ndescription: Writes.\nskills:\n  - release-notes\n  - tone\n---\nYou write.\n',
      { path: join(cwd, '.claude/agents/writer.md') },
    );
    const model = scriptedModel([{ content: [{ type: 'text', text: 'done' }] }]);
    const runtime = createRuntime({ model, agents: [definition], skills: loaded.skills });
    await runtime.spawn({ agent: 'writer', prompt: 'Write notes' }).result;
    await runtime.shutdown();
    expect(model.requests[0]!.system).toContain('Lead with the user-visible change.');
    expect(model.requests[0]!.system).toContain('No front matter: be brief.');
    expect(model.requests[0]!.system).not.toContain('Old text.');
  });
});

describe('agent memory on the file system', () => {
  it('MEMORY.md is read at start and updated by the agent through its memory tools, confined to its folder', async () => {
    const folder = agentMemoryFolder({ cwd, home }, 'learner', 'project');
    expect(folder).toBe(join(cwd, '.claude/agent-memory/learner'));
    write(join(folder, 'MEMORY.md'), '- tests run with `pnpm test`\n');
    const { definition } = parseAgentFile(
      '---\nname: learner\ndescription: Learns.\ntools: read, grep\nmemory: project\n---\nYou learn.\n',
      { path: join(cwd, '.claude/agents/learner.md') },
    );
    const model = scriptedModel((request) =>
      turnOf(request) === 1
        ? toolCallsReply([
            {
              name: 'memory_write',
              input: { file_path: 'MEMORY.md', content: '- tests run with `pnpm vitest`\n' },
            },
            { name: 'memory_write', input: { file_path: '../../escape.md', content: 'x' } },
          ])
        : textReply('remembered'),
    );
    const runtime = createRuntime({
      model,
      agents: [definition],
      tools: createNodeTools({ root: cwd }),
      memory: createAgentMemory({ cwd, home }),
      approval: 'auto',
    });
    const result = await runtime.spawn({ agent: 'learner', prompt: 'Note how tests run' }).result;
    await runtime.shutdown();
    expect(result.status).toBe('completed');
    const first = model.requests[0]!;
    expect(JSON.stringify(first.messages[0])).toContain('tests run with `pnpm test`');
    expect(first.tools.map((tool) => tool.name).sort()).toEqual([
      'grep',
      'memory_edit',
      'memory_ls',
      'memory_read',
      'memory_write',
      'read',
    ]);
    expect(readFileSync(join(folder, 'MEMORY.md'), 'utf8')).toBe('- tests run with `pnpm vitest`\n');
    expect(existsSync(join(cwd, '.claude/escape.md'))).toBe(false);
    expect(JSON.stringify(model.requests[1]!.messages.at(-1))).toContain('is_error');
  });

  it('an untrusted scope is left out with a warning, and the task runs without memory', async () => {
    const { definition } = parseAgentFile('---\nname: l\ndescription: L.\nmemory: local\n---\nL.\n');
    const model = scriptedModel([{ content: [{ type: 'text', text: 'ok' }] }]);
    const runtime = createRuntime({
      model,
      agents: [definition],
      memory: createAgentMemory({ cwd, home, scopes: ['user'] }),
    });
    const warnings: string[] = [];
    runtime.on('runtime.warning', (warning) => warnings.push(warning.message));
    await runtime.spawn({ agent: 'l', prompt: 'Go' }).result;
    await runtime.shutdown();
    expect(warnings.join('\n')).toContain('local memory is not available here');
    expect(model.requests[0]!.tools.map((tool) => tool.name)).not.toContain('memory_write');
  });
});
