import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as v from 'valibot';
import { beforeAll, describe, expect, it } from 'vitest';
import { SEED_AGENT_ALIASES } from '../../../core/src/definitions/agent-aliases.js';
import type { AgentRegistry } from '../../../core/src/definitions/agent-registry.js';
import { checkFinalAnswer } from '../../../core/src/definitions/check-final-answer.js';
import { taskToolDescription } from '../../../core/src/definitions/task-tool-description.js';
import { defineTool } from '../../../core/src/tools/define-tool.js';
import { createToolRegistry } from '../../../core/src/tools/tool-registry.js';
import { BUILTIN_AGENT_FILES } from './builtin-agent-files.js';
import { loadAgentDirectories } from './load-agent-directories.js';

const fake = (name: string, access: 'read' | 'write' | 'execute') =>
  defineTool({ name, description: name, access, input: v.object({}), execute: () => '' });
const NODE_TOOLS = [
  fake('read', 'read'),
  fake('glob', 'read'),
  fake('grep', 'read'),
  fake('ls', 'read'),
  fake('write', 'write'),
  fake('edit', 'write'),
  fake('bash', 'execute'),
];
const READ_ONLY = ['glob', 'grep', 'ls', 'read'];

let registry: AgentRegistry;
beforeAll(async () => {
  registry = await loadAgentDirectories({ cwd: '/nonexistent-project', home: '/nonexistent-home' });
});

const toolsOf = (name: string) => {
  const definition = registry.get(name)!;
  const tools = createToolRegistry(NODE_TOOLS, { allow: definition.tools, deny: definition.disallowedTools });
  expect(tools.unmatched).toEqual([]);
  return tools.names;
};

describe('built-in agents', () => {
  it('ship inside the package as data, the same as the top-level agents/ folder (their source)', () => {
    const script = fileURLToPath(new URL('../../scripts/generate-builtin-agents.mjs', import.meta.url));
    const check = spawnSync(process.execPath, [script, '--check'], { encoding: 'utf8' });
    expect(check.stderr).toBe('');
    expect(check.status).toBe(0);
    const repoAgents = fileURLToPath(new URL('../../../../agents/', import.meta.url));
    expect(BUILTIN_AGENT_FILES.map(({ file }) => file)).toEqual(
      readdirSync(repoAgents)
        .filter((file) => file.endsWith('.md'))
        .sort(),
    );
    for (const { file, text } of BUILTIN_AGENT_FILES)
      expect(text).toBe(readFileSync(join(repoAgents, file), 'utf8'));
    expect(registry.get('explore')!.path).toBe('builtin:explore.md');
  });

  it('all load, from the builtin source, without problems or warnings', () => {
    expect(registry.names()).toEqual([
      'code-reviewer',
      'codebase-investigator',
      'explore',
      'general-purpose',
      'plan',
    ]);
    expect(registry.list().every((agent) => agent.source === 'builtin')).toBe(true);
    expect(registry.problems()).toEqual([]);
    expect(registry.warnings()).toEqual([]);
  });

  it('give general-purpose every tool', () => {
    expect(toolsOf('general-purpose')).toEqual(['bash', 'edit', 'glob', 'grep', 'ls', 'read', 'write']);
    expect(registry.get('general-purpose')!.model).toBe('inherit');
  });

  it.each(['explore', 'plan', 'codebase-investigator', 'code-reviewer'])(
    'give %s exactly the read-only tools, as its description promises',
    (name) => {
      expect(toolsOf(name)).toEqual(READ_ONLY);
      expect(registry.get(name)!.description).toMatch(/read-only/i);
      expect(registry.get(name)!.systemPrompt).toMatch(/cannot (edit|change)|read-only/i);
    },
  );

  it('run explore on the small model and ask the caller for a thoroughness level', () => {
    const explore = registry.get('explore')!;
    expect(explore.model).toBe('small');
    for (const level of ['quick', 'medium', 'very thorough']) {
      expect(explore.description).toContain(`"${level}"`);
      expect(explore.systemPrompt).toContain(`**${level}**`);
    }
  });

  it('run plan on the plan model', () => {
    expect(registry.get('plan')!.model).toBe('plan');
  });

  it('make codebase-investigator return a structured report through its output schema', () => {
    const schema = registry.get('codebase-investigator')!.outputSchema!;
    expect(schema).toMatchObject({ type: 'object', required: ['summary', 'relevantLocations'] });
    const good = {
      summary: 'Sessions are created in session.ts.',
      relevantLocations: [
        { filePath: 'src/auth/session.ts:40', reasoning: 'Creates sessions.', keySymbols: ['createSession'] },
      ],
    };
    expect(checkFinalAnswer(`\`\`\`json\n${JSON.stringify(good)}\n\`\`\``, schema)).toEqual({
      ok: true,
      value: good,
    });
    const bad = checkFinalAnswer(
      JSON.stringify({ summary: 'x', relevantLocations: [{ filePath: 'a.ts' }] }),
      schema,
    );
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.message).toContain('relevantLocations[0]: missing required property "reasoning"');
  });

  it('answer to the seed names', () => {
    expect(Object.keys(SEED_AGENT_ALIASES)).toHaveLength(7);
    for (const [seed, name] of Object.entries(SEED_AGENT_ALIASES))
      expect(registry.get(seed)?.name).toBe(name);
    expect(registry.get('Explore')?.name).toBe('explore');
    expect(registry.get('code')?.name).toBe('general-purpose');
  });

  it('fit the task tool listing compactly', () => {
    const { text, names } = taskToolDescription(registry);
    expect(names).toEqual(registry.names());
    const lines = text.split('\n').slice(1);
    expect(lines).toHaveLength(5);
    expect(lines.find((line) => line.startsWith('- explore: '))).toMatch(/\(Tools: read, glob, grep, ls\)$/);
    expect(lines.find((line) => line.startsWith('- general-purpose: '))).toMatch(/\(Tools: all tools\)$/);
  });
});
