import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { builtinModules } from 'node:module';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { row, statusOf, useClaude, useWebApp } from '../../../test/e2e/web/web-page.js';
import {
  type FakeAnthropicServer,
  isMainAgent,
  startFakeAnthropic,
  textStep,
  toolResultsOf,
  toolStep,
} from '../../../test/fake-anthropic/index.js';

// One server and one Chromium for the whole file, serving the run's production build.
const app = useWebApp();
const artifacts = fileURLToPath(new URL('./artifacts/', import.meta.url));

/** In the demo, approves the review notes and denies the changelog ("not now"). */
async function answerDemoApprovals(page: Page): Promise<void> {
  const notes = page.locator('.approvals li', { hasText: 'Write the review notes' });
  await notes.getByRole('button', { name: 'Approve' }).click();
  const changelog = page.locator('.approvals li', { hasText: 'Add a changelog' });
  await changelog.locator('input[name="reason"]').fill('not now');
  await changelog.getByRole('button', { name: 'Deny' }).click();
}

describe('the production bundle', () => {
  it('has no node: import, no Node polyfill, and stays within 150 KB of gzipped JavaScript at start', () => {
    const size = JSON.parse(readFileSync(join(app.outDir, 'bundle-size.json'), 'utf8')) as {
      gzipBytes: number;
      chunks: { file: string; imports: string[]; modules: string[] }[];
    };
    const builtins = new Set(builtinModules);
    const imports = size.chunks.flatMap((chunk) => chunk.imports);
    expect(imports.filter((specifier) => specifier.startsWith('node:') || builtins.has(specifier))).toEqual(
      [],
    );
    const modules = size.chunks.flatMap((chunk) => chunk.modules);
    expect(modules.length).toBeGreaterThan(50);
    expect(modules.some((id) => id.includes('packages/core/src/'))).toBe(true);
    const polyfills =
      /__vite-browser-external|node_modules\/(?:buffer|process|util|path-browserify|stream-browserify|events|crypto-browserify|vite-plugin-node-polyfills)\//;
    expect(modules.filter((id) => polyfills.test(id))).toEqual([]);
    for (const file of readdirSync(join(app.outDir, 'assets')).filter((name) => name.endsWith('.js'))) {
      const code = readFileSync(join(app.outDir, 'assets', file), 'utf8');
      const found = /(?:\bfrom\s*|\bimport\s*\(\s*)["`]node:[a-z_/]+["`]/.exec(code);
      expect(found?.[0], file).toBeUndefined();
    }
    expect(size.gzipBytes).toBeGreaterThan(10_000);
    expect(size.gzipBytes).toBeLessThanOrEqual(150 * 1024);
  });

  it('has re2js (the engine of JSON Schema patterns) in a chunk of its own, loaded on demand only', () => {
    const size = JSON.parse(readFileSync(join(app.outDir, 'bundle-size.json'), 'utf8')) as {
      chunks: { file: string; modules: string[]; lazy: boolean }[];
    };
    const re2js = (chunk: { modules: string[] }) => chunk.modules.some((id) => id.includes('/re2js/'));
    expect(size.chunks.filter((chunk) => !chunk.lazy && re2js(chunk)).map((chunk) => chunk.file)).toEqual([]);
    const engine = size.chunks.filter(re2js);
    expect(engine).toEqual([expect.objectContaining({ lazy: true })]);
    // Nothing else rides along: the chunk is fetched for a pattern, not for other code.
    expect(engine[0]!.modules.every((id) => id.includes('/re2js/'))).toBe(true);
  });
});

describe('the web app in Chromium', () => {
  it('runs the offline demo: tasks go through their states; approve, deny and cancel work', async () => {
    const { context, page, errors } = await app.newPage();
    await app.goto(page, '/?pace=0.4#/');
    await page.getByRole('button', { name: 'Run the demo' }).click();

    await expect.poll(() => page.locator('.board li').count(), { timeout: 15_000 }).toBe(5);
    // The two writes wait for approval: approve the notes, deny the changelog with a reason.
    await answerDemoApprovals(page);
    await expect.poll(() => statusOf(page, 'Survey every file'), { timeout: 15_000 }).toBe('running');
    await row(page, 'Survey every file').getByRole('button', { name: 'Cancel' }).click();

    for (const description of [
      'Find the auth code',
      'Count the TODOs',
      'Write the review notes',
      'Add a changelog',
    ]) {
      await expect.poll(() => statusOf(page, description), { timeout: 20_000 }).toBe('completed');
    }
    expect(await statusOf(page, 'Survey every file')).toBe('cancelled');
    expect(await row(page, 'Find the auth code').textContent()).toMatch(
      /\[explore\] Find the auth code - done \(2 tools, [\d.]+m?s, [\d.]+k? tokens, 3 turns\)/,
    );
    await expect
      .poll(() => page.locator('.chat-log').textContent(), { timeout: 15_000 })
      .toMatch(/Survey every file: cancelled/);
    const files = await page.evaluate(async () => {
      const root = await navigator.storage.getDirectory();
      const demo = await (await root.getDirectoryHandle('troupe')).getDirectoryHandle('demo');
      const notes = await (await (await demo.getFileHandle('NOTES.md')).getFile()).text();
      const changelog = await demo.getFileHandle('CHANGELOG.md').then(
        () => true,
        () => false,
      );
      return { notes, changelog };
    });
    expect(files).toEqual({ notes: '# Review\n\n- hash passwords\n', changelog: false });

    mkdirSync(artifacts, { recursive: true });
    await page.screenshot({ path: join(artifacts, 'task-board.png'), fullPage: true });
    expect(errors).toEqual([]);
    await context.close();
  }, 90_000);

  it('resumes after a reload in the middle of the demo: history stays, each task ends once, no write runs twice', async () => {
    const { context, page, errors } = await app.newPage();
    await app.goto(page, '/?pace=0.6#/');
    await page.getByRole('button', { name: 'Run the demo' }).click();
    await expect.poll(() => statusOf(page, 'Find the auth code'), { timeout: 20_000 }).toBe('completed');
    await expect
      .poll(() => statusOf(page, 'Write the review notes'), { timeout: 15_000 })
      .toBe('awaitingApproval');
    expect(await statusOf(page, 'Survey every file')).toBe('running');

    await page.reload();
    await page.waitForSelector('body[data-ready="demo"]');
    // History: the finished task is still on the board; the unfinished ones were restored.
    expect(await statusOf(page, 'Find the auth code')).toBe('completed');
    expect(Number(await page.locator('body').getAttribute('data-restored'))).toBeGreaterThanOrEqual(3);
    // The writes ask again after the reload: approve one, deny the other.
    await answerDemoApprovals(page);
    for (const description of [
      'Survey every file',
      'Write the review notes',
      'Add a changelog',
      'Count the TODOs',
    ]) {
      await expect.poll(() => statusOf(page, description), { timeout: 30_000 }).toBe('completed');
    }
    expect(await page.locator('.board li').count()).toBe(5);
    // The survey finished once: one announcement of it in the chat.
    await expect
      .poll(() => page.locator('.chat-log li', { hasText: 'Survey every file: finished.' }).count(), {
        timeout: 15_000,
      })
      .toBe(1);
    // The approved write ran once (its transcript has one result for it); the denied one never ran.
    await row(page, 'Write the review notes').locator('a').click();
    await page.waitForSelector('.result');
    const transcript = (await page.locator('.transcript').textContent()) ?? '';
    expect(transcript.match(/← Created NOTES\.md/g)).toHaveLength(1);
    expect(transcript).not.toMatch(/Overwrote/);
    mkdirSync(artifacts, { recursive: true });
    await page.screenshot({ path: join(artifacts, 'task-detail.png'), fullPage: true });
    const changelogWritten = await page.evaluate(async () => {
      const root = await navigator.storage.getDirectory();
      const demo = await (await root.getDirectoryHandle('troupe')).getDirectoryHandle('demo');
      return demo.getFileHandle('CHANGELOG.md').then(
        () => true,
        () => false,
      );
    });
    expect(changelogWritten).toBe(false);

    // And after another reload everything is history.
    await page.goto(`${app.url}/?pace=0.6#/`);
    await page.reload();
    await page.waitForSelector('body[data-ready="demo"]');
    expect(await page.locator('body').getAttribute('data-restored')).toBe('0');
    expect(await page.locator('.board li[data-status="completed"]').count()).toBe(5);
    mkdirSync(artifacts, { recursive: true });
    await page.screenshot({ path: join(artifacts, 'task-board-after-reload.png'), fullPage: true });
    expect(errors).toEqual([]);
    await context.close();
  }, 120_000);

  it('talks to Claude from the page (the fake Anthropic server, over CORS) with a typed key kept out of IndexedDB', async () => {
    const key = 'sk-ant-typed-in-the-page-0001';
    let fake: FakeAnthropicServer | undefined;
    const { context, page, errors } = await app.newPage();
    try {
      fake = await startFakeAnthropic({
        apiKey: key,
        cors: app.url,
        strict: true,
        handler: (request) => {
          const results = toolResultsOf(request);
          if (isMainAgent(request)) {
            return results.length === 0
              ? toolStep('task', {
                  description: 'Find the auth code',
                  prompt: 'Find where logins are handled.',
                  subagent_type: 'explore',
                })
              : textStep('Logins are handled in src/auth.js, says the explorer.');
          }
          return results.length === 0 ? toolStep('glob', { pattern: '**/*' }) : textStep('src/auth.js');
        },
      });
      await useClaude(app, page, key, fake.url);

      await page.locator('textarea[name="message"]').fill('Where are logins handled?');
      await page.getByRole('button', { name: 'Send' }).click();
      await expect
        .poll(() => page.locator('.chat-log').textContent(), { timeout: 30_000 })
        .toMatch(/Logins are handled in src\/auth\.js, says the explorer\./);
      expect(await statusOf(page, 'Find the auth code')).toBe('completed');
      expect(await row(page, 'Find the auth code').textContent()).toMatch(
        /\[explore\] Find the auth code - done \(1 tool, [\d.]+m?s, [\d.]+k? tokens, 2 turns\)/,
      );
      // Every call came from the page, opted in to direct browser access, with the typed key.
      expect(fake.requests.length).toBe(4);
      for (const request of fake.requests) {
        expect(request.headers['anthropic-dangerous-direct-browser-access']).toBe('true');
        expect(request.headers.origin).toBe(app.url);
        expect(request.auth).not.toBe('none'); // the SDK sends the key as a bearer credential; the fake checked it
      }
      // The key is in this tab's sessionStorage only: not in IndexedDB, not in localStorage.
      const stored = await page.evaluate(async () => {
        const dump: string[] = [JSON.stringify({ ...localStorage })];
        for (const { name } of await indexedDB.databases()) {
          const db = await new Promise<IDBDatabase>((resolve, reject) => {
            const request = indexedDB.open(name!);
            request.onsuccess = () => resolve(request.result);
            request.onerror = () => reject(request.error);
          });
          for (const storeName of Array.from(db.objectStoreNames)) {
            const all = db.transaction(storeName).objectStore(storeName).getAll();
            dump.push(
              JSON.stringify(
                await new Promise((resolve) => {
                  all.onsuccess = () => resolve(all.result);
                }),
              ),
            );
          }
          db.close();
        }
        return { dump: dump.join('\n'), session: sessionStorage.getItem('troupe.apiKey') };
      });
      expect(stored.session).toBe(key);
      expect(stored.dump).toContain('Find the auth code');
      expect(stored.dump).not.toContain(key);
      mkdirSync(artifacts, { recursive: true });
      await page.screenshot({ path: join(artifacts, 'task-board-claude.png'), fullPage: true });
      expect(errors).toEqual([]);
    } finally {
      await context.close();
      await fake?.close();
    }
  }, 90_000);

  it('never sends the typed key to a base URL from a link without the user confirming it', async () => {
    const key = 'sk-ant-typed-in-the-page-0002';
    // "elsewhere": a server the link names. Like a hostile one it allows any origin (CORS) and
    // records every request, preflights included, with its headers.
    const elsewhereRequests: { method: string; headers: IncomingHttpHeaders }[] = [];
    const elsewhereServer = createServer((request, response) => {
      elsewhereRequests.push({ method: request.method ?? '', headers: request.headers });
      response.setHeader('access-control-allow-origin', '*');
      response.setHeader('access-control-allow-headers', '*');
      response.setHeader('access-control-allow-methods', '*');
      response.writeHead(request.method === 'OPTIONS' ? 204 : 401, { 'content-type': 'application/json' });
      response.end(
        request.method === 'OPTIONS'
          ? ''
          : '{"type":"error","error":{"type":"authentication_error","message":"no"}}',
      );
    });
    await new Promise<void>((resolve) => elsewhereServer.listen(0, '127.0.0.1', resolve));
    const elsewhere = `http://127.0.0.1:${(elsewhereServer.address() as AddressInfo).port}`;
    let proxy: FakeAnthropicServer | undefined;
    const { context, page, errors } = await app.newPage();
    try {
      // The user's own choice: Claude through their proxy, with a key typed in this tab.
      proxy = await startFakeAnthropic({
        apiKey: key,
        cors: app.url,
        strict: true,
        handler: () => textStep('Hello from your own proxy.'),
      });
      await useClaude(app, page, key, proxy.url);

      // A link opened in the same tab (sessionStorage, so the key, comes along) names elsewhere.
      const link = `${app.url}/?mode=claude&baseURL=${encodeURIComponent(elsewhere)}#/`;
      await page.goto(link);
      await page.waitForSelector('body[data-ready="claude"]');
      await page.locator('textarea[name="message"]').fill('Hello?');
      await page.getByRole('button', { name: 'Send' }).click();
      const keysSentElsewhere = () =>
        elsewhereRequests
          .filter((request) => request.method !== 'OPTIONS')
          .map((request) => request.headers['x-api-key'] ?? request.headers.authorization ?? 'no key');
      await expect
        .poll(() => proxy!.requests.length + keysSentElsewhere().length, { timeout: 30_000 })
        .toBeGreaterThan(0);
      expect(keysSentElsewhere()).toEqual([]);
      await expect
        .poll(() => page.locator('.chat-log').textContent(), { timeout: 30_000 })
        .toMatch(/Hello from your own proxy\./);
      expect(elsewhereRequests).toEqual([]);
      // The link's base URL is shown, named, and waits for the user; the settings keep the proxy.
      const confirm = page.locator('.base-url-confirm');
      expect(await confirm.textContent()).toContain(elsewhere);
      expect(await confirm.textContent()).toContain(proxy.url);
      await page.goto(`${app.url}/?mode=claude&baseURL=${encodeURIComponent(elsewhere)}#/settings`);
      await page.waitForSelector('body[data-ready="claude"]');
      expect(await page.locator('input[name="baseURL"]').inputValue()).toBe(proxy.url);

      // Ignoring it drops it from the address (a reload does not ask again) and keeps the proxy.
      await page.locator('.base-url-confirm').getByRole('button', { name: 'Ignore' }).click();
      await expect.poll(() => page.locator('.base-url-confirm').count()).toBe(0);
      expect(new URL(page.url()).searchParams.has('baseURL')).toBe(false);
      expect(await page.evaluate(() => localStorage.getItem('troupe.baseURL'))).toBe(proxy.url);

      // Only a click on "Use …" makes it the base URL.
      await page.goto(link);
      await page.waitForSelector('body[data-ready="claude"]');
      await page
        .locator('.base-url-confirm')
        .getByRole('button', { name: `Use ${elsewhere}` })
        .click();
      await page.waitForURL((address) => !address.searchParams.has('baseURL'));
      await page.waitForSelector('body[data-ready="claude"]');
      expect(await page.evaluate(() => localStorage.getItem('troupe.baseURL'))).toBe(elsewhere);
      expect(await page.locator('.base-url-confirm').count()).toBe(0);

      // A link whose base URL is not http(s) is refused with a notice, never offered.
      await page.goto(`${app.url}/?baseURL=${encodeURIComponent('javascript:alert(1)')}#/`);
      await page.waitForSelector('body[data-ready="claude"]');
      expect(await page.locator('.base-url-confirm').count()).toBe(0);
      expect(await page.locator('#notices').textContent()).toMatch(
        /ignored the base URL .* not an http\(s\) URL/,
      );
      expect(elsewhereRequests).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
      await proxy?.close();
      await new Promise<void>((resolve) => elsewhereServer.close(() => resolve()));
    }
  }, 90_000);

  it('validates an agent as it is typed, with problems by line, and keeps it across a reload', async () => {
    const { context, page } = await app.newPage();
    await app.goto(page, '/#/agents');
    const editor = page.locator('textarea[name="agent"]');
    await editor.fill('---\nname: checker\nmaxTurns: 4\n---\nYou check.\n');
    await expect
      .poll(() => page.locator('.problems').textContent())
      .toMatch(/line 1: .*description.* is required/);
    await editor.fill('---\nname: checker\ndescription: Checks things.\nshade: blue\n---\nYou check.\n');
    await expect
      .poll(() => page.locator('.problems').textContent())
      .toMatch(/line 4: .*unknown field 'shade'/);
    await page.getByRole('button', { name: 'Save agent' }).click();
    await expect.poll(() => page.locator('.agents-mine').textContent()).toContain('checker');
    await page.reload();
    await page.waitForSelector('body[data-ready="demo"]');
    await expect.poll(() => page.locator('.agents-mine').textContent()).toContain('checker');
    await context.close();
  }, 60_000);

  it('runs troupe in one tab at a time: a second tab waits, then takes over the unfinished tasks', async () => {
    const { context, page: first } = await app.newPage();
    await app.goto(first, '/?pace=0.6#/');
    await first.getByRole('button', { name: 'Run the demo' }).click();
    await expect.poll(() => statusOf(first, 'Survey every file'), { timeout: 20_000 }).toBe('running');

    const second = await context.newPage();
    await second.goto(`${app.url}/?pace=0.6#/`);
    await second.waitForSelector('body[data-ready="waiting"]');
    expect(await second.locator('#outlet').textContent()).toMatch(/open in another tab/);
    await first.close();
    await second.waitForSelector('body[data-ready="demo"]', { timeout: 20_000 });
    expect(Number(await second.locator('body').getAttribute('data-restored'))).toBeGreaterThanOrEqual(1);
    await expect.poll(() => statusOf(second, 'Survey every file'), { timeout: 30_000 }).toBe('completed');
    expect(await second.locator('.board li', { hasText: 'Survey every file' }).count()).toBe(1);
    await context.close();
  }, 90_000);
});
