import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  isMainAgent,
  startFakeAnthropic,
  textStep,
  toolResultsOf,
  toolStep,
} from '../../fake-anthropic/index.js';
import { freePort } from '../../helpers/free-port.js';
import { row, screenshot, send, statusOf, useClaude, useWebApp } from './web-page.js';

const app = useWebApp();

const KEY = 'sk-ant-web-errors-0001';

/** The last error line of the chat. */
function lastError(page: Page) {
  return page.locator('.chat-log .chat-error').last();
}

/** A loopback URL where nothing listens (a proxy that is down). */
async function closedPortURL(): Promise<string> {
  return `http://127.0.0.1:${await freePort()}`;
}

describe('errors are shown with their cause and a way on', () => {
  it('refuses to save Claude with neither a key nor a proxy, and says what is missing', async () => {
    const { context, page, errors } = await app.newPage();
    await app.goto(page, '/#/settings');
    await page.locator('select[name="mode"]').selectOption('claude');
    await page.getByRole('button', { name: 'Save and reload' }).click();
    await expect
      .poll(() => page.locator('.form-error').textContent())
      .toMatch(/Claude needs an Anthropic API key/);
    expect(await page.evaluate("localStorage.getItem('troupe.mode')")).not.toBe('claude');
    await page.locator('input[name="baseURL"]').fill('javascript:alert(1)');
    await page.locator('input[name="apiKey"]').fill(KEY);
    await page.getByRole('button', { name: 'Save and reload' }).click();
    await expect.poll(() => page.locator('.form-error').textContent()).toMatch(/not an http\(s\) URL/);
    expect(errors).toEqual([]);
    await context.close();
  }, 60_000);

  it('with Claude and no key (a new tab), says so in the header and in the conversation, with a retry', async () => {
    const { context, page, errors } = await app.newPage();
    await app.goto(page, '/?mode=claude#/', 'claude');
    expect(await page.locator('.mode-badge').textContent()).toMatch(/no API key/);
    await send(page, 'Hello?');
    await expect.poll(() => lastError(page).textContent(), { timeout: 15_000 }).toMatch(/No API key/);
    expect(await lastError(page).textContent()).toMatch(/Open Model settings/);
    expect(await lastError(page).getByRole('button', { name: 'Retry' }).count()).toBe(1);
    // A second message is not lost: it gets its own answer (here, the same error).
    await send(page, 'Still there?');
    await expect.poll(() => page.locator('.chat-log .chat-error').count(), { timeout: 15_000 }).toBe(2);
    expect(await page.locator('.chat-log .chat-user').allTextContents()).toEqual(['Hello?', 'Still there?']);
    // After a reload the errors are still there.
    await page.reload();
    await page.waitForSelector('body[data-ready="claude"]');
    expect(await page.locator('.chat-log .chat-error').count()).toBe(2);
    await screenshot(page, 'errors-no-key');
    expect(errors).toEqual([]);
    await context.close();
  }, 60_000);

  it('shows a refused key (401), a rate limit (429) whose retry then works, a proxy that is down and a CORS refusal', async () => {
    let limited = 3;
    const fake = await startFakeAnthropic({
      apiKey: KEY,
      cors: app.url,
      handler: () =>
        limited-- > 0
          ? { fault: 'rate_limited', retryAfter: 0 }
          : textStep('Here I am, after the **rate limit**.'),
    });
    const noCors = await startFakeAnthropic({ handler: () => textStep('never seen') });
    const { context, page, errors } = await app.newPage();
    try {
      await useClaude(app, page, 'sk-ant-wrong-key', fake.url);
      await send(page, 'Hello?');
      await expect
        .poll(() => lastError(page).textContent(), { timeout: 20_000 })
        .toMatch(/Claude refused the credentials.*HTTP 401.*check the API key/is);

      await useClaude(app, page, KEY, fake.url);
      await send(page, 'Hello again?');
      await expect
        .poll(() => lastError(page).textContent(), { timeout: 20_000 })
        .toMatch(/Rate limit reached.*HTTP 429.*Wait a minute/is);
      await lastError(page).getByRole('button', { name: 'Retry' }).click();
      await expect
        .poll(() => page.locator('.chat-log .chat-assistant strong').allTextContents(), { timeout: 20_000 })
        .toContain('rate limit');

      const down = await closedPortURL();
      await useClaude(app, page, KEY, down);
      await send(page, 'Anyone?');
      await expect
        .poll(() => lastError(page).textContent(), { timeout: 30_000 })
        .toMatch(
          new RegExp(
            `Claude could not be reached.*${down.replace(/[.:/]/g, '\\$&')}.*proxy is not running`,
            's',
          ),
        );

      await useClaude(app, page, KEY, noCors.url);
      const errorsBefore = await page.locator('.chat-log .chat-error').count();
      await send(page, 'Through CORS?');
      await expect
        .poll(() => page.locator('.chat-log .chat-error').count(), { timeout: 30_000 })
        .toBe(errorsBefore + 1);
      expect(await lastError(page).textContent()).toMatch(
        new RegExp(
          `Claude could not be reached.*Failed to fetch.*${noCors.url.replace(/[.:/]/g, '\\$&')}.*CORS`,
          's',
        ),
      );
      // The adapter's advice for a terminal (environment variables) is not shown in the page.
      expect(await lastError(page).textContent()).not.toMatch(/ANTHROPIC_BASE_URL/);
      expect(noCors.requests.filter((request) => request.method === 'POST')).toEqual([]);
      await screenshot(page, 'errors-claude');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
      await fake.close();
      await noCors.close();
    }
  }, 150_000);

  it('shows a failed sub-agent on the board and on its page, with its cause, and runs it again', async () => {
    let subAgentCalls = 0;
    let started = false;
    const fake = await startFakeAnthropic({
      apiKey: KEY,
      cors: app.url,
      handler: (request) => {
        if (isMainAgent(request)) {
          // The main agent starts the task once, then answers (also the failure's announcement).
          if (started) return textStep('Noted.');
          started = toolResultsOf(request).length === 0;
          return started
            ? toolStep('task', {
                description: 'Look around',
                prompt: 'List the files.',
                subagent_type: 'explore',
                run_in_background: true,
              })
            : textStep('Started it.');
        }
        subAgentCalls++;
        return subAgentCalls <= 1
          ? { fault: 'http_error', status: 403, errorType: 'permission_error', message: 'not for this key' }
          : textStep('Two files.');
      },
    });
    const { context, page, errors } = await app.newPage();
    try {
      await useClaude(app, page, KEY, fake.url);
      await send(page, 'Look around.');
      await expect.poll(() => statusOf(page, 'Look around'), { timeout: 30_000 }).toBe('failed');
      expect(await row(page, 'Look around').textContent()).toMatch(/failed, ERROR: .*HTTP 403/);
      await row(page, 'Look around').locator('a').click();
      await expect
        .poll(() => page.locator('.task-error').textContent(), { timeout: 10_000 })
        .toMatch(/Claude refused the credentials.*not for this key.*Open Model settings/s);
      await page.getByRole('button', { name: 'Run again' }).click();
      await expect
        .poll(() => page.locator('.result').textContent(), { timeout: 30_000 })
        .toMatch(/^completed .*Two files\./s);
      await screenshot(page, 'errors-task-run-again');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
      await fake.close();
    }
  }, 90_000);
});
