import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { defineTool } from './define-tool.js';
import { checkToolCall, executeToolCall } from './run-tool-call.js';
import { createToolRegistry } from './tool-registry.js';

const make = (name: string, access: 'read' | 'write' | 'execute' = 'read') =>
  defineTool({
    name,
    description: name,
    access,
    input: v.object({ text: v.string() }),
    execute: ({ text }) => text,
  });

describe('createToolRegistry', () => {
  const base = [
    make('read'),
    make('grep'),
    make('write', 'write'),
    make('bash', 'execute'),
    make('mcp__x__a'),
  ];

  it('takes every tool without an allow-list, and with *', () => {
    expect(createToolRegistry(base).names).toEqual(['bash', 'grep', 'mcp__x__a', 'read', 'write']);
    expect(createToolRegistry(base, { allow: ['*'] }).names).toHaveLength(5);
  });

  it('applies the allow-list case-insensitively, then the deny-list', () => {
    const registry = createToolRegistry(base, {
      allow: ['Read', 'Grep', 'Write', 'mcp__x__*'],
      deny: ['write'],
    });
    expect(registry.names).toEqual(['grep', 'mcp__x__a', 'read']);
  });

  it('reports allow-list names that match nothing', () => {
    expect(createToolRegistry(base, { allow: ['read', 'WebFetch'] }).unmatched).toEqual(['WebFetch']);
  });

  it('answers an unknown tool and bad input with error results, never executing', async () => {
    let ran = 0;
    const spy = defineTool({
      name: 'spy',
      description: 'spy',
      access: 'read',
      input: v.object({ n: v.number() }),
      execute: () => {
        ran++;
        return 'x';
      },
    });
    const registry = createToolRegistry([spy]);
    const unknown = checkToolCall(registry, { type: 'tool_use', id: 't1', name: 'rm_rf', input: {} });
    expect(unknown).toMatchObject({ ok: false, result: { is_error: true } });
    expect(unknown.ok === false && unknown.result.content).toContain('no tool named "rm_rf"');
    const bad = checkToolCall(registry, { type: 'tool_use', id: 't2', name: 'spy', input: { n: 'one' } });
    expect(bad).toMatchObject({ ok: false, result: { is_error: true, tool_use_id: 't2' } });
    expect(bad.ok === false && bad.result.content).toMatch(/invalid input for tool "spy": n: /);
    expect(ran).toBe(0);
  });

  it('turns a throwing tool into an error result', async () => {
    const boom = defineTool({
      name: 'boom',
      description: 'b',
      access: 'read',
      input: v.object({}),
      execute: () => {
        throw new Error('kaput');
      },
    });
    const registry = createToolRegistry([boom]);
    const result = await executeToolCall(
      registry,
      { type: 'tool_use', id: 't', name: 'boom', input: {} },
      {},
      {
        signal: new AbortController().signal,
        taskId: 'x',
        agent: 'a',
        toolUseId: 't',
      },
    );
    expect(result).toEqual({
      type: 'tool_result',
      tool_use_id: 't',
      content: 'Error: tool "boom" failed: kaput',
      is_error: true,
    });
  });

  it('refuses tool names the API would refuse', () => {
    expect(() => make('bad name')).toThrow(/invalid/);
  });
});
