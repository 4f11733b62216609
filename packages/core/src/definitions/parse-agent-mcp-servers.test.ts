import { describe, expect, it } from 'vitest';
import { DefinitionError } from '../errors.js';
import { createRuntime } from '../runtime/create-runtime.js';
import { scriptedModel } from '../testing/scripted-model.js';
import { parseAgentFile } from './parse-agent-file.js';
import { parseAgentJson } from './parse-agent-json.js';
import { validateAgentDefinition } from './validate-agent-definition.js';

const file = (...lines: string[]) =>
  ['---', 'name: a', 'description: d', ...lines, '---', 'prompt'].join('\n');

describe('the mcpServers field', () => {
  it.each([
    ['a comma string of names', ['mcpServers: github, files'], ['github', 'files']],
    ['a list of names', ['mcpServers:', '  - github', '  - files'], ['github', 'files']],
    [
      'a list mixing names and inline definitions',
      ['mcpServers:', '  - github', '  - local:', '      command: node', '      args: [server.js]'],
      ['github', { name: 'local', config: { command: 'node', args: ['server.js'] } }],
    ],
    [
      'an object of inline definitions',
      ['mcp_servers:', '  web:', '    type: http', '    url: http://127.0.0.1:1/mcp'],
      [{ name: 'web', config: { type: 'http', url: 'http://127.0.0.1:1/mcp' } }],
    ],
  ])('reads %s', (_shape, lines, expected) => {
    const { definition, warnings } = parseAgentFile(file(...lines), { path: 'a.md' });
    expect(definition.mcpServers).toEqual(expected);
    expect(warnings).toEqual([]);
  });

  it('reads it from JSON agent files too', () => {
    const { definition } = parseAgentJson(
      JSON.stringify({ name: 'a', description: 'd', prompt: 'p', mcpServers: ['github'] }),
    );
    expect(definition.mcpServers).toEqual(['github']);
  });

  it('names the file, line and field when a value cannot be used', () => {
    let error: unknown;
    try {
      parseAgentFile(file('mcpServers: [[1]]'), { path: 'agents/a.md' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(DefinitionError);
    expect((error as Error).message).toMatch(/agents\/a\.md:4.*mcpServers/);
  });

  it('is checked in definitions passed in code', () => {
    expect(() =>
      validateAgentDefinition({ name: 'a', description: 'd', systemPrompt: 'p', mcpServers: [3] }),
    ).toThrow(/mcpServers/);
  });

  it('allows every tool of the named servers on top of an explicit tools list', async () => {
    const { defineTool } = await import('../tools/define-tool.js');
    const v = await import('valibot');
    const tool = (name: string) =>
      defineTool({ name, description: name, access: 'read', input: v.object({}), execute: () => name });
    let offered: string[] = [];
    const runtime = createRuntime({
      model: scriptedModel((request) => {
        offered = request.tools.map((spec) => spec.name);
        return { content: [{ type: 'text', text: 'ok' }], usage: { input: 1, output: 1 } };
      }),
      tools: [tool('read'), tool('mcp__github__list'), tool('mcp__files__read'), tool('mcp__other__x')],
      agents: [
        { name: 'a', description: 'd', systemPrompt: 'p', tools: ['read'], mcpServers: ['github', 'files'] },
      ],
    });
    await runtime.spawn({ agent: 'a', prompt: 'go' }).result;
    expect(offered).toEqual(['mcp__files__read', 'mcp__github__list', 'read']);
    await runtime.shutdown();
  });
});
