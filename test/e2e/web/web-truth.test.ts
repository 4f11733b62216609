// The web app shows what the runtime says, before and after a reload (issue #24, item 1): approval
// cards go with their approvals and tasks, statuses and timers agree with the runtime, "Always
// allow" settles the other waiting calls, a denied write is not a green "done", the task page is
// live, and no announcement is lost. Offline demo in Debian's Chromium.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { row, screenshot, statusOf, useWebApp } from './web-page.js';

const app = useWebApp();

const DESCRIPTIONS = [
  'Find the auth code',
  'Count the TODOs',
  'Write the review notes',
  'Add a changelog',
  'Survey every file',
];

function card(page: Page, description: string) {
  return page.locator('.approvals li', { hasText: description });
}

/** Starts the demo and waits until both writes ask for approval. */
async function runDemoToApprovals(page: Page, pace = '0.4'): Promise<void> {
  await app.goto(page, `/?pace=${pace}#/`);
  await page.getByRole('button', { name: 'Run the demo' }).click();
  await expect.poll(() => page.locator('.approvals li').count(), { timeout: 20_000 }).toBe(2);
}

async function fileExists(page: Page, name: string): Promise<boolean> {
  return page.evaluate(`(async () => {
    const root = await navigator.storage.getDirectory();
    const demo = await (await root.getDirectoryHandle('troupe')).getDirectoryHandle('demo');
    return demo.getFileHandle(${JSON.stringify(name)}).then(() => true, () => false);
  })()`);
}

describe('the web app shows what the runtime says', () => {
  it('removes an approval card when its task is cancelled (its Cancel, or Cancel session), with no page error', async () => {
    const { context, page, errors } = await app.newPage();
    await runDemoToApprovals(page);
    await row(page, 'Write the review notes').getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => card(page, 'Write the review notes').count(), { timeout: 5_000 }).toBe(0);
    expect(await statusOf(page, 'Write the review notes')).toBe('cancelled');
    await expect.poll(() => card(page, 'Add a changelog').count()).toBe(1);

    await page.getByRole('button', { name: 'Cancel session' }).click();
    await expect.poll(() => page.locator('.approvals li').count(), { timeout: 5_000 }).toBe(0);
    expect(await statusOf(page, 'Add a changelog')).toBe('cancelled');
    expect(await page.locator('.approvals-panel').textContent()).toMatch(/No tool call is waiting/);
    expect(errors).toEqual([]);
    await context.close();
  }, 90_000);

  it('"Always allow write" also approves the other waiting write, as the CLI does', async () => {
    const { context, page, errors } = await app.newPage();
    await runDemoToApprovals(page);
    await card(page, 'Write the review notes').getByRole('button', { name: 'Always allow write' }).click();
    await expect.poll(() => page.locator('.approvals li').count(), { timeout: 5_000 }).toBe(0);
    expect(await page.locator('.approvals-panel').textContent()).toMatch(/Also approved .*Add a changelog/);
    for (const description of ['Write the review notes', 'Add a changelog'])
      await expect.poll(() => statusOf(page, description), { timeout: 20_000 }).toBe('completed');
    expect(await fileExists(page, 'CHANGELOG.md')).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  }, 90_000);

  it('after a reload, a task waiting for approval says so and a running task’s timer moves', async () => {
    const { context, page, errors } = await app.newPage();
    await runDemoToApprovals(page, '2');
    expect(await statusOf(page, 'Survey every file')).toBe('running');
    await page.reload();
    await page.waitForSelector('body[data-ready="demo"]');
    await expect.poll(() => card(page, 'Write the review notes').count(), { timeout: 10_000 }).toBe(1);
    await expect
      .poll(() => statusOf(page, 'Write the review notes'), { timeout: 3_000 })
      .toBe('awaitingApproval');
    expect(await statusOf(page, 'Add a changelog')).toBe('awaitingApproval');
    expect(await row(page, 'Write the review notes').textContent()).toMatch(/waiting for approval/);
    // The survey runs on (a model call every 2 s at this pace): its line's elapsed time grows
    // every second, between its events too.
    expect(await statusOf(page, 'Survey every file')).toBe('running');
    const line = row(page, 'Survey every file').locator('.line');
    let previous = await line.textContent();
    for (let sample = 0; sample < 3; sample++) {
      await page.waitForTimeout(1_200);
      const now = await line.textContent();
      if ((await statusOf(page, 'Survey every file')) !== 'running') break;
      expect(now).not.toBe(previous);
      previous = now;
    }
    await screenshot(page, 'truth-after-reload');
    expect(errors).toEqual([]);
    await context.close();
  }, 90_000);

  it('shows a task whose write was denied as denied, not a green "done", also after a reload', async () => {
    const { context, page, errors } = await app.newPage();
    await runDemoToApprovals(page);
    const changelog = card(page, 'Add a changelog');
    await changelog.locator('input[name="reason"]').fill('not now');
    await changelog.getByRole('button', { name: 'Deny' }).click();
    await expect.poll(() => statusOf(page, 'Add a changelog'), { timeout: 20_000 }).toBe('completed');
    const check = async () => {
      const line = row(page, 'Add a changelog');
      expect(await line.locator('.status').textContent()).toBe('denied');
      expect(await line.textContent()).toMatch(/done, write denied/);
      expect(await line.getAttribute('class')).toMatch(/status-denied/);
    };
    await check();
    await page.reload();
    await page.waitForSelector('body[data-ready="demo"]');
    await expect.poll(() => statusOf(page, 'Add a changelog'), { timeout: 10_000 }).toBe('completed');
    await check();
    expect(errors).toEqual([]);
    await context.close();
  }, 90_000);

  it('updates a task’s page while the task runs, without a reload', async () => {
    const { context, page, errors } = await app.newPage();
    await app.goto(page, '/?pace=0.3#/');
    await page.getByRole('button', { name: 'Run the demo' }).click();
    await expect.poll(() => statusOf(page, 'Survey every file'), { timeout: 20_000 }).toBe('running');
    await row(page, 'Survey every file').locator('a').click();
    await page.waitForSelector('.result');
    expect(await page.locator('.result').textContent()).toBe('Not finished.');
    await expect.poll(() => page.locator('.transcript li').count(), { timeout: 20_000 }).toBeGreaterThan(2);
    await expect
      .poll(() => page.locator('.result').textContent(), { timeout: 30_000 })
      .toMatch(/^completed \(GOAL\)/);
    expect(await page.locator('.task-status').textContent()).toBe('Status: completed');
    expect(await page.locator('h2.task-line').textContent()).toMatch(/Survey every file - done/);
    expect(errors).toEqual([]);
    await context.close();
  }, 90_000);

  it('keeps every announcement, once, while another page is open and across a reload', async () => {
    const { context, page, errors } = await app.newPage();
    await runDemoToApprovals(page);
    await card(page, 'Write the review notes').getByRole('button', { name: 'Approve' }).click();
    await card(page, 'Add a changelog').getByRole('button', { name: 'Approve' }).click();
    // The tasks end while the agents page is open, and the page is reloaded there.
    await page.goto(`${app.url}/?pace=0.4#/agents`);
    await page.waitForSelector('body[data-ready="demo"]');
    await page.waitForTimeout(3_000);
    await page.reload();
    await page.waitForSelector('body[data-ready="demo"]');
    await page.goto(`${app.url}/?pace=0.4#/`);
    for (const description of DESCRIPTIONS)
      await expect.poll(() => statusOf(page, description), { timeout: 30_000 }).toBe('completed');
    for (const description of DESCRIPTIONS)
      await expect
        .poll(() => page.locator('.chat-log .chat-announcement', { hasText: `"${description}"` }).count(), {
          timeout: 15_000,
        })
        .toBe(1);
    await page.reload();
    await page.waitForSelector('body[data-ready="demo"]');
    expect(await page.locator('.chat-log .chat-announcement').count()).toBe(5);
    expect(errors).toEqual([]);
    await context.close();
  }, 120_000);
});
