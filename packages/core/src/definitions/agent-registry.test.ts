import { describe, expect, it } from 'vitest';
import { DefinitionError } from '../errors.js';
import { createAgentRegistry } from './agent-registry.js';
import { parseAgentFile } from './parse-agent-file.js';
import type { AgentDefinition } from './types.js';

const agent = (name: string, extra: Partial<AgentDefinition> = {}): AgentDefinition => ({
  name,
  description: `${name} agent`,
  systemPrompt: `You are ${name}.`,
  ...extra,
});

describe('createAgentRegistry', () => {
  it('lets a project agent override a built-in one, and reports the shadowed one', () => {
    const registry = createAgentRegistry();
    registry.add(agent('explore', { path: 'agents/explore.md' }), 'builtin');
    registry.add(agent('plan'), 'builtin');
    const project = parseAgentFile('---\nname: explore\ndescription: Our explorer.\n---\nCustom.', {
      path: '.troupe/agents/explore.md',
    }).definition;
    registry.add(project, 'project');
    expect(registry.get('explore')).toMatchObject({ description: 'Our explorer.', source: 'project' });
    expect(registry.names()).toEqual(['explore', 'plan']);
    const shadowed = registry.shadowed();
    expect(shadowed).toHaveLength(1);
    expect(shadowed[0]).toMatchObject({
      name: 'explore',
      kept: { source: 'project', path: '.troupe/agents/explore.md' },
      shadowed: { source: 'builtin', path: 'agents/explore.md' },
    });
    expect(shadowed[0]!.message).toBe(
      "agent 'explore' from builtin (agents/explore.md) is shadowed by the one from project (.troupe/agents/explore.md).",
    );
  });

  it('orders by source, not by the order of add: code > project > user > builtin', () => {
    const registry = createAgentRegistry();
    registry.add(agent('x', { description: 'builtin' }), 'builtin');
    registry.add(agent('x', { description: 'code' }), 'code');
    registry.add(agent('x', { description: 'user' }), 'user');
    registry.add(agent('x', { description: 'project' }), 'project');
    expect(registry.get('x')!.description).toBe('code');
    expect(registry.shadowed().map((s) => s.shadowed.description)).toEqual(['project', 'user', 'builtin']);
  });

  it('keeps the first of two definitions from the same source (.troupe before .claude)', () => {
    const registry = createAgentRegistry();
    registry.add(agent('x', { path: '.troupe/agents/x.md' }), 'project');
    registry.add(agent('x', { path: '.claude/agents/x.md' }), 'project');
    expect(registry.get('x')!.path).toBe('.troupe/agents/x.md');
    expect(registry.shadowed()[0]!.shadowed.path).toBe('.claude/agents/x.md');
  });

  it('uses the definition own source, else code', () => {
    const registry = createAgentRegistry({ definitions: [agent('a'), agent('b', { source: 'user' })] });
    expect(registry.get('a')!.source).toBe('code');
    expect(registry.get('b')!.source).toBe('user');
  });

  it('finds names case-insensitively and through the seed aliases', () => {
    const registry = createAgentRegistry();
    for (const name of ['explore', 'plan', 'general-purpose', 'codebase-investigator'])
      registry.add(agent(name), 'builtin');
    expect(registry.get('Explore')!.name).toBe('explore');
    expect(registry.get('PLAN')!.name).toBe('plan');
    expect(registry.get('code')!.name).toBe('general-purpose');
    expect(registry.get('file-search')!.name).toBe('explore');
    expect(registry.get('codebase-explorer')!.name).toBe('explore');
    expect(registry.get('code-analysis')!.name).toBe('codebase-investigator');
    expect(registry.get('codebase_investigator')!.name).toBe('codebase-investigator');
    expect(registry.get('General Purpose')!.name).toBe('general-purpose');
    expect(registry.has('nope')).toBe(false);
    expect(registry.aliases()).toMatchObject({ code: 'general-purpose', 'file-search': 'explore' });
    expect(registry.names()).not.toContain('code');
  });

  it('lets a real definition named like an alias win over the alias', () => {
    const registry = createAgentRegistry();
    registry.add(agent('explore'), 'builtin');
    registry.add(agent('file-search', { description: 'real' }), 'user');
    expect(registry.get('file-search')!.description).toBe('real');
    expect(registry.aliases()).not.toHaveProperty('file-search');
  });

  it('takes host aliases, and an alias to a missing agent resolves to nothing', () => {
    const registry = createAgentRegistry({ aliases: { reviewer: 'code-reviewer' } });
    expect(registry.get('reviewer')).toBeUndefined();
    expect(registry.get('code')).toBeUndefined();
    registry.add(agent('code-reviewer'));
    expect(registry.get('Reviewer')!.name).toBe('code-reviewer');
  });

  it('refuses an invalid definition from code with a DefinitionError naming the fields', () => {
    const registry = createAgentRegistry();
    expect(() => registry.add(agent('Bad Name'))).toThrow(DefinitionError);
    expect(() => registry.add(agent('ok', { maxTurns: 0 }))).toThrow(
      /'maxTurns' must be a whole number of turns/,
    );
    expect(() => registry.add({ name: 'x', systemPrompt: '' } as AgentDefinition)).toThrow(/'description'/);
    expect(() => registry.add(agent('ok', { outputSchema: { type: 'nope' } }))).toThrow(
      /not a valid JSON Schema/,
    );
    expect(registry.names()).toEqual([]);
  });

  it('lists problems and warnings without losing the good definitions', () => {
    const registry = createAgentRegistry();
    registry.add(agent('good'), 'project');
    try {
      parseAgentFile('# no front matter', { path: '.claude/agents/bad.md' });
    } catch (error) {
      registry.addProblem(error as DefinitionError, 'project');
    }
    registry.addProblem({ message: 'cannot read dir', file: '/x' }, 'user');
    registry.addWarnings(parseAgentFile('---\ndescription: d\n---\np', { path: 'w.md' }).warnings);
    expect(registry.problems()).toMatchObject([
      { file: '.claude/agents/bad.md', line: 1, source: 'project' },
      { message: 'cannot read dir', file: '/x', source: 'user' },
    ]);
    expect(registry.problems()[0]!.error).toBeInstanceOf(DefinitionError);
    expect(registry.warnings()).toMatchObject([{ kind: 'name-from-file', file: 'w.md' }]);
    expect(registry.names()).toEqual(['good']);
  });

  it('require() throws DEFINITION_NOT_FOUND listing the available names', () => {
    const registry = createAgentRegistry({ definitions: [agent('a'), agent('b')] });
    expect(registry.require('A').name).toBe('a');
    expect(() => registry.require('zzz')).toThrow(/No agent named "zzz". Available: a, b./);
    try {
      registry.require('zzz');
    } catch (error) {
      expect((error as DefinitionError).code).toBe('DEFINITION_NOT_FOUND');
    }
  });
});
