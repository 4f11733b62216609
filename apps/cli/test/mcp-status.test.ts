import { describe, expect, it } from 'vitest';
import { createColors } from '../src/render/colors.js';
import { mcpStatusLines } from '../src/render/mcp-status.js';

describe('mcpStatusLines', () => {
  it('shows a tool the server calls read-only, but the user has not, with how to trust the hint', () => {
    const lines = mcpStatusLines(
      [
        {
          name: 'files',
          type: 'stdio',
          source: '.mcp.json',
          state: 'ready',
          tools: [
            { name: 'mcp__files__list', mcpName: 'list', access: 'write', serverSaysReadOnly: true },
            { name: 'mcp__files__read', mcpName: 'read', access: 'read', serverSaysReadOnly: true },
            { name: 'mcp__files__write', mcpName: 'write', access: 'execute' },
          ],
        },
      ],
      createColors(false),
    );
    expect(lines.slice(1)).toEqual([
      '  mcp__files__read   read',
      '  mcp__files__list   write  (the server says read-only; "toolAccess": { "list": "read" } trusts it)',
      '  mcp__files__write  execute',
    ]);
  });
});
