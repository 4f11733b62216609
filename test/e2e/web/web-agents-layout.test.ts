// The agents editor (issue #24, item 4) and the app anywhere (item 5): every problem of a file at
// once, warnings apart from errors, unknown tools and models, a built-in shadowed, deletes
// confirmed, whole descriptions, each location once, an output schema's pattern checked and run
// with re2js fetched only then; every page at 390, 768 and 1280 px without sideways scrolling,
// axe-core on every page, keyboard use, a favicon.
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  startFakeAnthropic,
  systemOf,
  textStep,
  toolResultsOf,
  toolStep,
} from '../../fake-anthropic/index.js';
import { expectAccessible } from '../accessibility.js';
import { row, screenshot, send, sidewaysOverflow, statusOf, useClaude, useWebApp } from './web-page.js';

const app = useWebApp();
const KEY = 'sk-ant-web-agents-0001';

const problems = (page: Page, severity: 'error' | 'warning') =>
  page.locator(`.problems li[data-severity="${severity}"]`).allTextContents();

describe('the agents editor', () => {
  it('reports every problem at once, warns about unknown tools and models, and says when a built-in is shadowed', async () => {
    const { context, page, errors } = await app.newPage();
    await app.goto(page, '/#/agents');
    const editor = page.locator('textarea[name="agent"]');
    await editor.fill(
      '---\nname: checker\nmaxTurns: -1\ntools: read, WebFetch\nmodel: gpt-4\n---\nYou check.\n',
    );
    await expect.poll(() => problems(page, 'error')).toHaveLength(2);
    const found = await problems(page, 'error');
    expect(found[0]).toMatch(/^Error, line 1: field 'description' is required/);
    expect(found[1]).toMatch(/^Error, line 3: field 'maxTurns' must be/);
    // Each location once, as "line N" (not "line 1: agent.md:1:").
    for (const text of await page.locator('.problems li').allTextContents()) {
      expect(text).not.toMatch(/agent\.md/);
      expect(text.match(/line \d+/g)?.length ?? 0).toBeLessThanOrEqual(1);
    }
    expect(await page.locator('[role="status"]').first().textContent()).toMatch(/Not valid yet: 2 errors/);

    await editor.fill(
      '---\nname: checker\ndescription: Checks things.\ntools: read, WebFetch\nmodel: gpt-4\n---\nYou check.\n',
    );
    await expect.poll(() => problems(page, 'warning')).toHaveLength(2);
    expect(await problems(page, 'error')).toEqual([]);
    const warnings = (await problems(page, 'warning')).join('\n');
    expect(warnings).toMatch(/line 4: unknown tool 'WebFetch'/);
    expect(warnings).toMatch(/line 5: unknown model 'gpt-4'/);
    expect(await page.locator('.muted[role="status"]').textContent()).toMatch(
      /Valid: checker \(2 warnings\)/,
    );
    // Warnings are not coloured as errors.
    const colour = (severity: string) =>
      page
        .locator(`.problems li[data-severity="${severity}"]`)
        .first()
        .evaluate(
          (node) =>
            (
              globalThis as unknown as { getComputedStyle(node: unknown): Record<string, string> }
            ).getComputedStyle(node).color as string,
        );
    await editor.fill('---\nname: checker\nmaxTurns: -1\ntools: read, WebFetch\n---\nYou check.\n');
    await expect.poll(() => problems(page, 'warning')).toHaveLength(1);
    expect(await colour('warning')).not.toBe(await colour('error'));

    await editor.fill('---\nname: explore\ndescription: My own explorer.\ntools: read\n---\nYou explore.\n');
    await expect
      .poll(() => problems(page, 'warning'))
      .toEqual([expect.stringMatching(/'explore' is the name of a built-in agent/)]);
    await page.getByRole('button', { name: 'Save agent' }).click();
    await expect
      .poll(() => page.locator('.muted[role="status"]').textContent())
      .toMatch(/replaces the built-in agent/);
    expect(errors).toEqual([]);
    await context.close();
  }, 60_000);

  it("checks an output schema's pattern with re2js, fetched only then, and runs an agent that has one", async () => {
    const agent = (pattern: string) =>
      `---\nname: coder\ndescription: Makes codes.\ntools: read\noutputSchema:\n  type: object\n  required: [code]\n  properties:\n    code: { type: string, pattern: '${pattern}' }\n---\nYou make codes.\n`;
    let codes = 0;
    const fake = await startFakeAnthropic({
      apiKey: KEY,
      cors: app.url,
      handler: (request) => {
        if (systemOf(request).includes('You make codes.'))
          // A code the pattern refuses, then (told what was wrong) one it accepts.
          return textStep(++codes === 1 ? '{"code": "ab-1"}' : '{"code": "AB-12"}');
        return toolResultsOf(request).length === 0
          ? toolStep('task', { description: 'Make a code', prompt: 'Make a code.', subagent_type: 'coder' })
          : textStep('The code is AB-12.');
      },
    });
    const { context, page, errors } = await app.newPage();
    try {
      const size = (await (await page.request.get(`${app.url}/bundle-size.json`)).json()) as {
        chunks: { file: string; modules: string[] }[];
      };
      const engine = size.chunks.find((chunk) => chunk.modules.some((id) => id.includes('/re2js/')))!.file;
      // Whether this document loaded the engine's chunk (from the network or the cache).
      const loadedEngine = async () =>
        (
          (await page.evaluate(
            "performance.getEntriesByType('resource').map((entry) => entry.name)",
          )) as string[]
        ).some((name) => name.endsWith(engine));
      const status = page.locator('.muted[role="status"]');
      await app.goto(page, '/#/agents');
      await expect.poll(() => status.textContent()).toMatch(/^Valid: my-agent/);
      expect(await loadedEngine()).toBe(false);

      const editor = page.locator('textarea[name="agent"]');
      await editor.fill(agent('^(?=A)[A-Z]+$'));
      await expect
        .poll(() => problems(page, 'error'))
        .toEqual([expect.stringMatching(/outputSchema.*look-around or back-references/)]);
      await screenshot(page, 'agents-pattern');
      expect(await loadedEngine()).toBe(true);
      await editor.fill(agent('^[A-Z]{2}-\\d+$'));
      await expect.poll(() => status.textContent()).toMatch(/^Valid: coder/);
      await page.getByRole('button', { name: 'Save agent' }).click();
      await expect.poll(() => status.textContent()).toMatch(/^Saved coder/);

      // After the reload, the app parses the saved agent (loading the engine again) and runs it: its
      // first answer fails the pattern, the second passes.
      await useClaude(app, page, KEY, fake.url);
      await send(page, 'Make a code.');
      await expect.poll(() => statusOf(page, 'Make a code'), { timeout: 30_000 }).toBe('completed');
      expect(codes).toBe(2);
      const retry = fake.requests.filter((request) => systemOf(request).includes('You make codes.'))[1]!;
      expect(JSON.stringify(retry.body)).toMatch(
        /code: expected a string matching .*got a string \(\\"ab-1\\"\)/,
      );
      expect(await loadedEngine()).toBe(true);
      expect(await page.locator('#notices').count()).toBe(0);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
      await fake.close();
    }
  }, 90_000);

  it('shows whole descriptions and asks before deleting an agent', async () => {
    const { context, page, errors } = await app.newPage();
    await app.goto(page, '/#/agents');
    const explore = readFileSync(new URL('../../../agents/explore.md', import.meta.url), 'utf8');
    const description = JSON.parse(/^description: (".*")$/m.exec(explore)![1]!) as string;
    expect(description.length).toBeGreaterThan(140);
    const item = page
      .locator('.agents-builtin li')
      .filter({ has: page.locator('strong', { hasText: /^explore$/ }) });
    expect(await item.textContent()).toContain(description);
    // Each agent in its file's `color` (explore.md says blue), with a swatch, as the CLI colours it.
    expect(await item.locator('.agent-label').getAttribute('data-color')).toBe('blue');
    expect(
      await page
        .locator('.agents-builtin .agent-label')
        .evaluateAll((labels) =>
          labels.map((label) => (label as unknown as { dataset: { color?: string } }).dataset.color ?? ''),
        ),
    ).toEqual(expect.arrayContaining(['red', 'cyan', 'blue', 'gray', 'purple']));
    await screenshot(page, 'agents-colors');

    await page
      .locator('textarea[name="agent"]')
      .fill('---\nname: doomed\ndescription: Goes away.\n---\nBye.\n');
    await page.getByRole('button', { name: 'Save agent' }).click();
    await expect.poll(() => page.locator('.agents-mine').textContent()).toContain('doomed');
    const answers: boolean[] = [false, true];
    const asked: string[] = [];
    page.on('dialog', (dialog) => {
      asked.push(dialog.message());
      void (answers.shift() ? dialog.accept() : dialog.dismiss());
    });
    await page.getByRole('button', { name: 'Delete doomed' }).click();
    await page.waitForTimeout(300);
    expect(await page.locator('.agents-mine').textContent()).toContain('doomed');
    await page.getByRole('button', { name: 'Delete doomed' }).click();
    await expect.poll(() => page.locator('.agents-mine').textContent()).not.toContain('doomed');
    expect(asked).toEqual(['Delete your agent "doomed"? This cannot be undone.', expect.any(String)]);
    expect(errors).toEqual([]);
    await context.close();
  }, 60_000);
});

describe('the app anywhere', () => {
  it('has every page usable at 390, 768 and 1280 px with no sideways scrolling, and no serious axe-core violation', async () => {
    const { context, page, errors } = await app.newPage(1280);
    // Something on every page: a finished demo (a task to open, approvals answered).
    await app.goto(page, '/?pace=0.2#/');
    await page.getByRole('button', { name: 'Run the demo' }).click();
    await expect.poll(() => page.locator('.approvals li').count(), { timeout: 20_000 }).toBe(2);
    await expectAccessible(page, 'home with approvals');
    for (const name of ['Approve', 'Approve'])
      await page.locator('.approvals li').first().getByRole('button', { name, exact: true }).click();
    await expect.poll(() => statusOf(page, 'Survey every file'), { timeout: 30_000 }).toBe('completed');
    // The board shows each task's agent in its colour (explore is blue, general-purpose gray).
    expect(await row(page, 'Find the auth code').locator('.agent-label').getAttribute('data-color')).toBe(
      'blue',
    );
    const taskHref = await row(page, 'Find the auth code').locator('a').getAttribute('href');
    const pages = ['#/', taskHref!, '#/agents', '#/settings', '#/inspector'];
    for (const width of [390, 768, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      for (const hash of pages) {
        await page.goto(`${app.url}/?pace=0.2${hash}`);
        await page.waitForSelector('body[data-ready="demo"]');
        await page.waitForFunction("!document.querySelector('#outlet[aria-busy]')");
        await page.waitForTimeout(200);
        expect(await sidewaysOverflow(page), `${hash} at ${width} px`).toEqual([]);
        if (width === 1280) await expectAccessible(page, hash);
        if (hash === '#/' || hash === '#/inspector')
          await screenshot(page, `${hash === '#/' ? 'home' : 'inspector'}-${width}`);
      }
    }
    // At 390 px the chat and the side panels stack.
    await page.setViewportSize({ width: 390, height: 900 });
    await page.goto(`${app.url}/#/`);
    await page.waitForSelector('body[data-ready="demo"]');
    const chat = await page.locator('section.chat').boundingBox();
    const side = await page.locator('section.side').boundingBox();
    expect(side!.y).toBeGreaterThan(chat!.y + chat!.height - 1);
    expect(errors).toEqual([]);
    await context.close();
  }, 150_000);

  it('works from the keyboard and has a favicon', async () => {
    const { context, page, errors } = await app.newPage();
    await app.goto(page, '/?pace=0.2#/');
    const icon = await page.locator('link[rel="icon"]').getAttribute('href');
    expect((await page.request.get(`${app.url}${icon}`)).status()).toBe(200);
    expect((await page.request.get(`${app.url}/favicon.ico`)).status()).toBe(200);
    // Tab reaches the message box; Enter sends from there.
    let focused = '';
    for (let presses = 0; presses < 12 && focused !== 'message'; presses++) {
      await page.keyboard.press('Tab');
      focused = await page.evaluate("document.activeElement?.getAttribute('name') ?? ''");
    }
    expect(focused).toBe('message');
    await page.keyboard.type('find TODO');
    await page.keyboard.press('Enter');
    await expect.poll(() => statusOf(page, 'Search for todo'), { timeout: 20_000 }).toBe('completed');
    // Navigation links are reachable and work with Enter.
    await page.locator('nav a', { hasText: 'Agents' }).focus();
    await page.keyboard.press('Enter');
    await page.waitForSelector('textarea[name="agent"]');
    expect(errors).toEqual([]);
    await context.close();
  }, 60_000);
});
