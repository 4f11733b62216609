import type { ToolContext } from '@troupe/core';
import { describe, expect, inject, it } from 'vitest';
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

  it('does not follow a redirect to another origin: nothing, not even a POST body, reaches it', async () => {
    const allowedOrigin = inject('redirectAllowedOrigin');
    const otherOrigin = inject('redirectOtherOrigin');
    const tool = createFetchTool({ allowedOrigins: [allowedOrigin] });
    for (const status of [301, 302, 303, 307, 308]) {
      const target = `${otherOrigin}/stolen-${status}`;
      await expect(
        tool.execute(
          {
            url: `${allowedOrigin}/redirect?status=${status}&to=${encodeURIComponent(target)}`,
            method: 'POST',
            body: `secret body ${status}`,
          },
          context,
        ),
      ).rejects.toThrow(/answered with a redirect.*not followed/);
    }
    const log = (await (await fetch(`${otherOrigin}/log`)).json()) as { path: string }[];
    expect(log.filter((request) => request.path.startsWith('/stolen-'))).toEqual([]);
    // A browser hides a redirect's target, so even one within the allowed origin is refused, with a hint.
    await expect(
      tool.execute({ url: `${allowedOrigin}/redirect?status=302&to=%2Fhello` }, context),
    ).rejects.toThrow(/cannot be checked against the allowed origins\. Request the final URL directly/);
    // An answer that is not a redirect still comes through.
    expect(String(await tool.execute({ url: `${allowedOrigin}/hello` }, context))).toMatch(
      /^HTTP 200 OK \(text\/plain\)\n\nhello from \/hello, GET/,
    );
  });

  it('refuses an allow-list entry that is not http(s)', () => {
    expect(() => createFetchTool({ allowedOrigins: ['file:///etc'] })).toThrow(/must be http or https/);
  });
});
