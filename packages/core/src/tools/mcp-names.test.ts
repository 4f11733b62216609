import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { defineTool } from './define-tool.js';
import { mcpServerOf, mcpToolName, sanitiseMcpName } from './mcp-names.js';
import { createToolRegistry } from './tool-registry.js';

const tool = (name: string) =>
  defineTool({ name, description: name, access: 'read', input: v.object({}), execute: () => name });

describe('MCP tool names', () => {
  it('joins server and tool as mcp__server__tool, replacing characters the API refuses', () => {
    expect(mcpToolName('github', 'create_issue')).toBe('mcp__github__create_issue');
    expect(mcpToolName('my.server', 'read file/v2')).toBe('mcp__my_server__read_file_v2');
    expect(sanitiseMcpName('a-b_c9')).toBe('a-b_c9');
  });

  it('cuts a name past 64 characters to 64 with a stable hash, distinct for distinct tools', () => {
    const long = 'x'.repeat(80);
    const first = mcpToolName('server', `${long}1`);
    const second = mcpToolName('server', `${long}2`);
    expect(first).toHaveLength(64);
    expect(first).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    expect(first).not.toBe(second);
    expect(mcpToolName('server', `${long}1`)).toBe(first);
  });

  it('finds the server a name or pattern refers to', () => {
    expect(mcpServerOf('mcp__github')).toBe('github');
    expect(mcpServerOf('mcp__github__*')).toBe('github');
    expect(mcpServerOf('mcp__github__create_issue')).toBe('github');
    expect(mcpServerOf('read')).toBeUndefined();
    expect(mcpServerOf('mcp__*')).toBeUndefined();
  });
});

describe('allow and deny patterns for MCP tools', () => {
  const base = [
    tool('read'),
    tool('mcp__github__create_issue'),
    tool('mcp__github__list_issues'),
    tool('mcp__files__read_text_file'),
    tool('mcp__files__write_file'),
  ];

  it('mcp__server selects every tool of that server, and no other server with that prefix', () => {
    const registry = createToolRegistry([...base, tool('mcp__githubx__a')], { allow: ['mcp__github'] });
    expect(registry.names).toEqual(['mcp__github__create_issue', 'mcp__github__list_issues']);
  });

  it('mcp__server__* selects the same, and exact names select one tool', () => {
    expect(createToolRegistry(base, { allow: ['mcp__files__*'] }).names).toEqual([
      'mcp__files__read_text_file',
      'mcp__files__write_file',
    ]);
    expect(createToolRegistry(base, { allow: ['read', 'mcp__files__read_text_file'] }).names).toEqual([
      'mcp__files__read_text_file',
      'read',
    ]);
  });

  it('deny-lists take the same patterns and win over the allow-list', () => {
    expect(createToolRegistry(base, { deny: ['mcp__github'] }).names).toEqual([
      'mcp__files__read_text_file',
      'mcp__files__write_file',
      'read',
    ]);
    expect(
      createToolRegistry(base, { allow: ['mcp__files'], deny: ['mcp__files__write_file'] }).names,
    ).toEqual(['mcp__files__read_text_file']);
  });

  it('reports a server pattern that matches nothing as unmatched', () => {
    expect(createToolRegistry(base, { allow: ['mcp__nowhere'] }).unmatched).toEqual(['mcp__nowhere']);
  });
});
