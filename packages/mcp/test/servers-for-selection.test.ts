import { describe, expect, it } from 'vitest';
import { serversForSelection } from '../src/servers-for-selection.js';

// Which servers a task's tool selection can reach, judged from the patterns alone (no server starts).
const names = ['files', 'github', 'my.docs'];
const reach = (allow?: string[], deny?: string[]) => serversForSelection(names, { allow, deny });

describe('serversForSelection', () => {
  it('an open list (no tools, or *) reaches every server', () => {
    expect(reach().servers).toEqual(names);
    expect(reach(['read', '*']).servers).toEqual(names);
  });

  it('a list without MCP patterns reaches none', () => {
    expect(reach(['read', 'grep', 'mcp_notes'])).toEqual({ servers: [], expect: [] });
  });

  it('a bare server, a server wildcard, an exact tool and mcp__* reach their servers (case-insensitive, sanitised names)', () => {
    expect(reach(['mcp__files']).servers).toEqual(['files']);
    expect(reach(['mcp__GitHub__*']).servers).toEqual(['github']);
    expect(reach(['mcp__my_docs__search'])).toEqual({
      servers: ['my.docs'],
      expect: ['mcp__my_docs__search'],
    });
    expect(reach(['mcp__*']).servers).toEqual(names);
    expect(reach(['mcp__gi*']).servers).toEqual(['github']);
    // A prefix of another server's name is not that server.
    expect(reach(['mcp__file']).servers).toEqual([]);
  });

  it('a deny entry that removes a whole server keeps it from starting; one that removes a tool does not', () => {
    expect(reach(undefined, ['mcp__github']).servers).toEqual(['files', 'my.docs']);
    expect(reach(['*'], ['mcp__files__*', 'mcp__my_docs__search']).servers).toEqual(['github', 'my.docs']);
    expect(reach(['mcp__files'], ['mcp__*']).servers).toEqual([]);
  });
});
