// The fetch tool over Node's fetch (undici), where `redirect: 'manual'` shows a redirect's
// Location: redirects are followed by the tool itself, each hop checked against the allow-list.
// In a browser the Location cannot be read and redirects are refused (fetch-tool.browser.test.ts).
import type { ToolContext } from '@troupe/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFetchTool } from '../src/index.js';
import { type RecordedRequest, startRedirectServers } from './redirect-setup.js';

const context: ToolContext = {
  signal: new AbortController().signal,
  taskId: 't1',
  agent: 'test',
  toolUseId: 'toolu_1',
};

let servers: Awaited<ReturnType<typeof startRedirectServers>>;
beforeAll(async () => {
  servers = await startRedirectServers();
});
afterAll(() => servers?.stop());

const redirect = (status: number, to: string) =>
  `${servers.allowed}/redirect?status=${status}&to=${encodeURIComponent(to)}`;
const received = (prefix: string): RecordedRequest[] =>
  servers.log.filter((request) => request.path.startsWith(prefix));

describe('fetch tool redirects (Node fetch)', () => {
  it('refuses a redirect to an origin off the allow-list at every hop: nothing, not even a POST body, reaches it', async () => {
    const tool = createFetchTool({ allowedOrigins: [servers.allowed] });
    for (const status of [301, 302, 303, 307, 308]) {
      await expect(
        tool.execute(
          {
            url: redirect(status, `${servers.other}/stolen-${status}`),
            method: 'POST',
            body: 'the secret body',
          },
          context,
        ),
      ).rejects.toThrow(
        new RegExp(
          `answered with a redirect \\(HTTP ${status}\\) to ${servers.other}/stolen-${status}, an origin that is not allowed; the redirect was not followed`,
        ),
      );
    }
    // The second hop is checked too: allowed -> allowed -> other.
    await expect(
      tool.execute({ url: redirect(302, redirect(307, `${servers.other}/stolen-second-hop`)) }, context),
    ).rejects.toThrow(/not allowed; the redirect was not followed/);
    expect(received('/stolen-')).toEqual([]);
  });

  it('follows a redirect within the allowed origins, as a browser would rewrite the method', async () => {
    const tool = createFetchTool({ allowedOrigins: [servers.allowed] });
    const post = { method: 'POST' as const, body: 'payload' };
    // 307 and 308 keep the method and the body; 303 (and 301/302 after a POST) become a GET without one.
    expect(String(await tool.execute({ url: redirect(307, '/hello'), ...post }, context))).toMatch(
      /hello from \/hello, POST with "payload"$/,
    );
    expect(String(await tool.execute({ url: redirect(308, '/hello'), ...post }, context))).toMatch(
      /hello from \/hello, POST with "payload"$/,
    );
    for (const status of [301, 302, 303]) {
      expect(String(await tool.execute({ url: redirect(status, '/hello'), ...post }, context))).toMatch(
        /hello from \/hello, GET$/,
      );
    }
    expect(
      String(await tool.execute({ url: redirect(302, '/hello'), method: 'PUT', body: 'x' }, context)),
    ).toMatch(/hello from \/hello, PUT with "x"$/);
  });

  it('drops credentials when a redirect crosses to another allowed origin, and stops a redirect loop', async () => {
    const tool = createFetchTool({ allowedOrigins: [servers.allowed, servers.other] });
    const text = String(
      await tool.execute(
        {
          url: redirect(307, `${servers.other}/crossed`),
          headers: { Authorization: 'Bearer token-for-allowed' },
        },
        context,
      ),
    );
    expect(text).toMatch(/the other origin got it/);
    expect(received('/crossed')).toEqual([
      { method: 'GET', path: '/crossed', body: '', authorization: null },
    ]);
    await expect(tool.execute({ url: `${servers.allowed}/loop` }, context)).rejects.toThrow(
      /more than 5 redirects/,
    );
  });

  it('does not return what a custom fetch that ignores redirect: manual brought back from another origin', async () => {
    const following: typeof fetch = (input, init) => fetch(input, { ...init, redirect: 'follow' });
    const tool = createFetchTool({ allowedOrigins: [servers.allowed], fetch: following });
    await expect(
      tool.execute({ url: redirect(302, `${servers.other}/followed-anyway`) }, context),
    ).rejects.toThrow(
      /was redirected to .*\/followed-anyway, an origin that is not allowed; its answer is not returned/,
    );
  });
});
