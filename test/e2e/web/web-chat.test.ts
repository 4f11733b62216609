// Chat like the CLI (issue #24, item 3): the demo labelled, an offline demo model that answers what
// is typed and delegates when asked (not the scripted review again), reasoning and text streamed,
// Enter sends and Shift+Enter breaks the line, Markdown rendered without raw HTML or `javascript:`
// links (Claude through the fake Anthropic server).
import { describe, expect, it } from 'vitest';
import { startFakeAnthropic } from '../../fake-anthropic/index.js';
import { screenshot, send, statusOf, useClaude, useWebApp } from './web-page.js';

const app = useWebApp();

describe('the chat', () => {
  it('in the labelled demo, answers what is typed, streams its reasoning, and delegates a search when asked', async () => {
    const { context, page, errors } = await app.newPage();
    await app.goto(page, '/?pace=1#/');
    expect(await page.locator('.mode-badge').textContent()).toMatch(/Offline demo/);
    // Nothing yet: the panels say so instead of standing empty.
    expect(await page.locator('.side').textContent()).toMatch(/No tool call is waiting.*No task yet/s);

    await send(page, 'Hello, what can you do?');
    // The reply streams in: reasoning first, then the text, before the run ends.
    await expect
      .poll(() => page.locator('.chat-live .reasoning').textContent(), { timeout: 10_000 })
      .toMatch(/answer directly/);
    await expect
      .poll(() => page.locator('.chat-log .chat-assistant').last().textContent(), { timeout: 15_000 })
      .toMatch(/You wrote: “Hello, what can you do\?”.*offline demo/s);
    await expect.poll(() => page.locator('.chat-live').count(), { timeout: 10_000 }).toBe(0);
    expect(await page.locator('.board li').count()).toBe(0);
    // Its Markdown is rendered: a list and strong text, not asterisks.
    expect(await page.locator('.chat-log .chat-assistant').last().locator('ul li').count()).toBe(2);
    expect(await page.locator('.chat-log .chat-assistant').last().textContent()).not.toContain('**');

    await send(page, 'Where is login handled?');
    await expect.poll(() => statusOf(page, 'Search for login'), { timeout: 20_000 }).toBe('completed');
    await expect
      .poll(() => page.locator('.chat-log .chat-assistant').last().textContent(), { timeout: 20_000 })
      .toMatch(/explore agent answered.*src\/auth\.js/s);
    expect(await page.locator('.chat-log .chat-assistant').last().locator('pre code').count()).toBe(1);
    // The task tool's trailer (task id, agent) is for the model, not the user.
    expect(await page.locator('.chat-log .chat-assistant').last().textContent()).not.toMatch(/task_id/);
    // One task, the search: the scripted review did not run again.
    expect(await page.locator('.board li').count()).toBe(1);
    await screenshot(page, 'chat-demo');
    expect(errors).toEqual([]);
    await context.close();
  }, 90_000);

  it('sends with Enter and breaks the line with Shift+Enter', async () => {
    const { context, page, errors } = await app.newPage();
    await app.goto(page, '/?pace=0.2#/');
    const box = page.locator('textarea[name="message"]');
    await box.click();
    await page.keyboard.type('first line');
    await page.keyboard.press('Shift+Enter');
    await page.keyboard.type('second line');
    expect(await box.inputValue()).toBe('first line\nsecond line');
    expect(await page.locator('.chat-log .chat-user').count()).toBe(0);
    await page.keyboard.press('Enter');
    await expect
      .poll(() => page.locator('.chat-log .chat-user').allTextContents())
      .toEqual(['first line\nsecond line']);
    expect(await box.inputValue()).toBe('');
    await expect.poll(() => page.locator('.chat-log .chat-assistant').count(), { timeout: 15_000 }).toBe(1);
    expect(errors).toEqual([]);
    await context.close();
  }, 60_000);

  it('renders a model’s Markdown safely: no raw HTML, no javascript: link; streams Claude’s reasoning', async () => {
    const key = 'sk-ant-web-chat-0001';
    const answer = [
      '**Done.** Read [the docs](https://example.com/docs) or [this](javascript:window.__pwned=2).',
      '',
      '<img src="x" onerror="window.__pwned=1"> <script>window.__pwned=3</script>',
      '',
      '1. first',
      '2. second',
      '',
      '```js',
      'const x = "<b>not bold</b>";',
      '```',
    ].join('\n');
    const fake = await startFakeAnthropic({
      apiKey: key,
      cors: app.url,
      handler: () => ({
        content: [
          { type: 'thinking', thinking: 'The user wants the summary; I will give it.', signature: 'sig' },
          { type: 'text', text: answer },
        ],
        delayMs: 120,
      }),
    });
    const { context, page, errors } = await app.newPage();
    try {
      await useClaude(app, page, key, fake.url);
      expect(await page.locator('.mode-badge').textContent()).toMatch(/^Claude via /);
      await send(page, 'Summarise.');
      await expect
        .poll(() => page.locator('.chat-live .reasoning').textContent(), { timeout: 15_000 })
        .toMatch(/The user wants the summary/);
      const reply = page.locator('.chat-log .chat-assistant').last();
      await expect.poll(() => reply.textContent(), { timeout: 20_000 }).toMatch(/not bold/);
      await expect.poll(() => page.locator('.chat-live').count(), { timeout: 10_000 }).toBe(0);
      expect(await reply.locator('strong').first().textContent()).toBe('Done.');
      expect(await reply.locator('a[href="https://example.com/docs"]').count()).toBe(1);
      expect(await page.locator('.chat-log a[href^="javascript:"]').count()).toBe(0);
      expect(await page.locator('.chat-log img, .chat-log script, .chat-log b').count()).toBe(0);
      expect(await reply.textContent()).toContain('<img src="x" onerror="window.__pwned=1">');
      // List items are not drawn as chat bubbles of their own.
      expect(
        await reply
          .locator('ol li')
          .first()
          .evaluate(
            (node) =>
              (
                globalThis as unknown as { getComputedStyle(node: unknown): Record<string, string> }
              ).getComputedStyle(node).borderTopWidth as string,
          ),
      ).toBe('0px');
      expect(await reply.locator('ol li').count()).toBe(2);
      expect(await reply.locator('pre code').textContent()).toBe('const x = "<b>not bold</b>";');
      expect(await page.evaluate('window.__pwned')).toBeUndefined();
      await screenshot(page, 'chat-markdown');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
      await fake.close();
    }
  }, 90_000);
});
