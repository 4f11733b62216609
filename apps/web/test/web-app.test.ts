import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import type { PreviewServer } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, launchChromium, serveApp } from './web-harness.js';

// One production build, one server and one Chromium for the whole file.
let outDir: string;
let server: PreviewServer;
let url: string;
let browser: Browser;
const artifacts = fileURLToPath(new URL('./artifacts/', import.meta.url));

beforeAll(async () => {
  outDir = await buildApp();
  ({ server, url } = await serveApp(outDir));
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  if (outDir) rmSync(outDir, { recursive: true, force: true });
});

function row(page: Page, description: string) {
  return page.locator('.board li', { hasText: description });
}

async function statusOf(page: Page, description: string): Promise<string | null> {
  return row(page, description).getAttribute('data-status');
}

describe('the production bundle', () => {
  it('has no node: import, no Node polyfill, and stays within 250 KB of gzipped JavaScript', () => {
    const size = JSON.parse(readFileSync(join(outDir, 'bundle-size.json'), 'utf8')) as {
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
    for (const file of readdirSync(join(outDir, 'assets')).filter((name) => name.endsWith('.js'))) {
      const code = readFileSync(join(outDir, 'assets', file), 'utf8');
      const found = /(?:\bfrom\s*|\bimport\s*\(\s*)["`]node:[a-z_/]+["`]/.exec(code);
      expect(found?.[0], file).toBeUndefined();
    }
    expect(size.gzipBytes).toBeGreaterThan(10_000);
    expect(size.gzipBytes).toBeLessThanOrEqual(250 * 1024);
  });
});

describe('the web app in Chromium', () => {
  it('runs the offline demo: tasks go through their states; approve, deny and cancel work', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${url}/?pace=0.4#/`);
    await page.waitForSelector('body[data-ready="demo"]');
    await page.getByRole('button', { name: 'Run the demo' }).click();

    await expect.poll(() => page.locator('.board li').count(), { timeout: 15_000 }).toBe(5);
    // The two writes wait for approval: approve the notes, deny the changelog with a reason.
    const notes = page.locator('.approvals li', { hasText: 'Write the review notes' });
    await notes.getByRole('button', { name: 'Approve' }).click();
    const changelog = page.locator('.approvals li', { hasText: 'Add a changelog' });
    await changelog.locator('input[name="reason"]').fill('not now');
    await changelog.getByRole('button', { name: 'Deny' }).click();
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
});
