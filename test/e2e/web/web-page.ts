// Shared by the web app's Chromium tests in this folder: one production build per test run, one
// server and one Chromium per test file, pages that record every uncaught error, and the app's common steps.
// TROUPE_WEB_APP_ROOT builds another checkout's app (how these tests were shown to fail before
// their fixes); by default the app of this checkout.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { PreviewServer } from 'vite';
import { afterAll, beforeAll } from 'vitest';
import { builtApp, launchChromium, serveApp } from '../../../apps/web/test/web-harness.js';

/** Screenshots of these tests (look at them). */
export const artifacts = fileURLToPath(new URL('./artifacts/', import.meta.url));

/** A built and served app and a Chromium: `open()` in `beforeAll`, `close()` in `afterAll` ({@link useWebApp} does both). */
export class WebApp {
  url = '';
  /** The production build it serves. */
  outDir = '';
  private server: PreviewServer | undefined;
  private browser: Browser | undefined;

  async open(): Promise<void> {
    this.outDir = await builtApp(process.env.TROUPE_WEB_APP_ROOT);
    ({ server: this.server, url: this.url } = await serveApp(this.outDir, process.env.TROUPE_WEB_APP_ROOT));
    this.browser = await launchChromium();
    mkdirSync(artifacts, { recursive: true });
  }

  async close(): Promise<void> {
    await this.browser?.close();
    await this.server?.close();
  }

  /** A fresh context (its own storage) at `width`×900 and one page whose uncaught errors are kept in `errors`. */
  async newPage(width = 1280): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
    const context = await this.browser!.newContext({ viewport: { width, height: 900 } });
    const page = await context.newPage();
    const errors = watchErrors(page);
    return { context, page, errors };
  }

  /** Opens the app at `path` (after the origin) and waits until it is ready in `mode`. */
  async goto(page: Page, path: string, mode: 'demo' | 'claude' = 'demo'): Promise<void> {
    await page.goto(`${this.url}${path}`);
    await page.waitForSelector(`body[data-ready="${mode}"]`);
  }
}

/**
 * The calling test file's app: one build served and one Chromium, opened before its first test
 * and closed after its last.
 */
export function useWebApp(): WebApp {
  const app = new WebApp();
  beforeAll(() => app.open(), 120_000);
  afterAll(() => app.close());
  return app;
}

/** Collects the page's uncaught errors (`pageerror`), and its failed requests for the page's own files. */
export function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  page.on('response', (response) => {
    if (response.status() === 404) errors.push(`404: ${response.url()}`);
  });
  return errors;
}

/** A task's row on the board. */
export function row(page: Page, description: string) {
  return page.locator('.board li', { hasText: description });
}

/** A task's status as the board says it (`data-status`). */
export function statusOf(page: Page, description: string): Promise<string | null> {
  return row(page, description).getAttribute('data-status');
}

/** Sends `text` in the chat with the Send button. */
export async function send(page: Page, text: string): Promise<void> {
  await page.locator('textarea[name="message"]').fill(text);
  await page.getByRole('button', { name: 'Send' }).click();
}

/** Switches to Claude with `key` (may be empty) and `baseURL` on the settings page; waits for the reload. */
export async function useClaude(app: WebApp, page: Page, key: string, baseURL: string): Promise<void> {
  await page.goto(`${app.url}/#/settings`);
  await page.waitForSelector('body[data-ready="demo"], body[data-ready="claude"]');
  await page.locator('select[name="mode"]').selectOption('claude');
  await page.locator('input[name="apiKey"]').fill(key);
  await page.locator('input[name="baseURL"]').fill(baseURL);
  await page.getByRole('button', { name: 'Save and reload' }).click();
  await page.waitForSelector('body[data-ready="claude"]');
}

/**
 * What makes the page scroll sideways: empty when its content is no wider than the viewport, else
 * the outermost elements that reach past its right edge (tag, class, right edge in px).
 */
export function sidewaysOverflow(page: Page): Promise<string[]> {
  return page.evaluate(`(() => {
    const root = document.documentElement;
    if (root.scrollWidth <= root.clientWidth) return [];
    const past = [...document.querySelectorAll('body *')].filter(
      (node) => node.getBoundingClientRect().right > root.clientWidth + 1,
    );
    return past
      .filter((node) => !past.includes(node.parentElement))
      .slice(0, 5)
      .map((node) => node.tagName.toLowerCase() + '.' + String(node.className) + ' ' + Math.round(node.getBoundingClientRect().right) + 'px');
  })()`);
}

/** Saves a full-page screenshot as `artifacts/<name>.png`. */
export function screenshot(page: Page, name: string): Promise<Buffer> {
  return page.screenshot({ path: join(artifacts, `${name}.png`), fullPage: true });
}
