import type { ToolContext } from '@troupe/core';
import { describe, expect, it } from 'vitest';
import { createFetchTool } from '../src/index.js';

const context: ToolContext = {
  signal: new AbortController().signal,
  taskId: 't1',
  agent: 'test',
  toolUseId: 'toolu_1',
};

describe('fetch tool', () => {
  it('is an execute tool (so it goes through approvals) and only reaches allowed origins', async () => {
    const tool = createFetchTool({ allowedOrigins: [location.origin] });
    expect(tool.access).toBe('execute');
    const page = String(await tool.execute({ url: `${location.origin}/@vite/client` }, context));
    expect(page).toMatch(/^HTTP 200 OK \(text\/javascript/);
    await expect(tool.execute({ url: 'https://example.com/' }, context)).rejects.toThrow(
      /origin https:\/\/example.com is not allowed/,
    );
    await expect(tool.execute({ url: '/relative' }, context)).rejects.toThrow(/not an absolute URL/);
  });

  it('refuses an allow-list entry that is not http(s)', () => {
    expect(() => createFetchTool({ allowedOrigins: ['file:///etc'] })).toThrow(/must be http or https/);
  });
});
