// The offline inspector page in real headless Chromium: a recorded timeline loaded from a file,
// stepped forward and back (the highlighted state and the context view checked against the
// timeline at each step), a live `troupe run --inspect` session followed through the relay, and
// a task of the CLI's file store opened through `troupe replay --inspect`.
// Screenshots go to test/e2e/inspector/artifacts/.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  activePaths,
  buildTimelineModel,
  createRecorder,
  formatStateValue,
  formatTimeline,
  parseTimeline,
  type RelayReplay,
} from '@troupe/inspect';
import { createRelay, type Relay } from '@troupe/inspect/node';
import type { Browser, Page } from 'playwright-core';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  FAKE_API_KEY,
  startFakeAnthropic,
  textStep,
  toolResultsOf,
  toolStep,
} from '../../fake-anthropic/index.js';
import { artifacts, openInspectorBrowser, repositoryRoot as root } from './inspector-browser.js';
import { recordApprovedTask } from './recorded-runs.js';

const here = fileURLToPath(new URL('.', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'troupe-inspector-'));
let appDir: string;
let browser: Browser;

beforeAll(async () => {
  ({ appDir, browser } = await openInspectorBrowser(work));
}, 120_000);

afterAll(async () => {
  await browser?.close();
  rmSync(work, { recursive: true, force: true });
});

async function stepText(page: Page): Promise<string> {
  return (await page.getByTestId('step').textContent()) ?? '';
}

/** The messages of the page's uncaught errors, collected as they happen. */
function pageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
}

/** The `data-path` of every state the chart highlights. */
function highlightedPaths(page: Page): Promise<(string | null)[]> {
  return page
    .locator('[data-testid="chart"] [data-active]')
    .evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-path')));
}

/** Polls the inspector's source line (what it is showing, or why not). */
function pollSourceStatus(page: Page, timeout?: number) {
  return expect.poll(() => page.getByTestId('source-status').textContent(), timeout ? { timeout } : {});
}

/** Opens the web app served at `origin` and starts its offline demo (real tasks, scripted model). */
async function runWebDemo(page: Page, origin: string): Promise<void> {
  await page.goto(`${origin}/?pace=0.4#/`);
  await page.waitForSelector('body[data-ready="demo"]');
  await page.getByRole('button', { name: 'Run the demo' }).click();
}

/** Starts the troupe CLI from source with `args`, in the repository root, with output piped. */
function spawnCli(args: string[], env: NodeJS.ProcessEnv): ChildProcess {
  const bin = join(root, 'apps', 'cli', 'src', 'bin.ts');
  return spawn(process.execPath, ['--conditions=source', '--import', 'tsx', bin, ...args], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** An environment for the CLI: a fresh HOME under the work directory, the fake API, the built app. */
function cliEnv(home: string, apiUrl: string): NodeJS.ProcessEnv {
  mkdirSync(home, { recursive: true });
  return {
    ...process.env,
    HOME: home,
    ANTHROPIC_API_KEY: FAKE_API_KEY,
    ANTHROPIC_BASE_URL: apiUrl,
    TROUPE_WEB_DIR: appDir,
  };
}

/** The inspector address the CLI printed in `output` (`Inspector: URL`), once it has. */
async function inspectorUrlIn(output: () => string): Promise<string> {
  await expect.poll(() => /Inspector: (\S+)/.exec(output())?.[1], { timeout: 30_000 }).toBeDefined();
  return /Inspector: (\S+)/.exec(output())![1]!;
}

describe('the offline inspector in Chromium', () => {
  it('loads a recorded timeline, steps forward and back, and shows the state and context of each step', async () => {
    const { timeline, taskId } = await recordApprovedTask();
    const file = join(work, 'run.timeline.jsonl');
    writeFileSync(file, formatTimeline(timeline));
    const model = buildTimelineModel(timeline);
    const relay = await createRelay({ header: timeline.header, appDir });
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    try {
      await page.goto(`${relay.url}/#/inspector`);
      await page.getByTestId('timeline-file').setInputFiles(file);
      await expect.poll(() => stepText(page)).toBe(`step 0 / ${model.frames.length - 1}`);

      const check = async (index: number) => {
        const frame = model.frames[index]!;
        expect(await stepText(page)).toBe(`step ${index} / ${model.frames.length - 1}`);
        const actor = frame.actors.get(frame.sessionId)!;
        expect(await page.getByTestId('state-value').textContent()).toBe(formatStateValue(actor.value));
        const highlighted = await highlightedPaths(page);
        expect(highlighted.sort()).toEqual(activePaths(actor.value).sort());
        const changed = await page
          .locator('.context-view [data-changed]')
          .evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-key')));
        expect(changed).toEqual(frame.changes.map((change) => change.key));
        for (const key of ['turns', 'toolCalls']) {
          if (!(key in actor.context)) continue;
          const shown = await page
            .locator(`.context-view [data-key="${key}"] .value`)
            .getAttribute('data-value');
          expect(shown, `${key} at step ${index + 1}`).toBe(JSON.stringify(actor.context[key]));
        }
      };

      for (let index = 0; index < model.frames.length; index++) {
        if (index > 0) await page.getByTestId('forward').click();
        await check(index);
      }
      const task = model.frames.findIndex(
        (frame) => frame.kind === 'snapshot' && frame.event?.type === 'approval.granted',
      );
      await page.screenshot({ path: join(artifacts, 'inspector-last-step.png') });
      for (let index = model.frames.length - 1; index >= task; index--) {
        if (index < model.frames.length - 1) await page.getByTestId('back').click();
        await check(index);
      }
      expect(await page.getByTestId('state-value').textContent()).toBe('running.acting');
      await expect
        .poll(() => page.locator(`.actor[data-session] .actor-name`).allTextContents())
        .toContain(`writer · ${taskId}`);
      await page.screenshot({ path: join(artifacts, 'inspector-approved-step.png'), fullPage: true });
    } finally {
      await page.close();
      await relay.close();
    }
  }, 90_000);

  it('refuses a file that is not a timeline, saying which', async () => {
    const file = join(work, 'tasks.jsonl');
    writeFileSync(file, '{"v":1,"taskId":"t_1","event":"task.queued"}\n');
    const relay: Relay = await createRelay({ header: createRecorder().header, appDir });
    const page = await browser.newPage();
    try {
      await page.goto(`${relay.url}/#/inspector`);
      await page.getByTestId('timeline-file').setInputFiles(file);
      await pollSourceStatus(page).toMatch(/tasks\.jsonl is not a troupe timeline/);
    } finally {
      await page.close();
      await relay.close();
    }
  }, 30_000);

  it("replays a task the web app ran, from the app's own store, and says it reproduced exactly", async () => {
    const relay = await createRelay({ header: createRecorder().header, appDir });
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    const errors = pageErrors(page);
    try {
      // The app's offline demo runs real tasks (scripted model, OPFS tools) into its store.
      await runWebDemo(page, relay.url);
      const auth = page.locator('.board li', { hasText: 'Find the auth code' });
      await expect.poll(() => auth.getAttribute('data-status'), { timeout: 30_000 }).toBe('completed');

      // A hash route, not a reload: the app's store lives in the page.
      await page.evaluate("location.hash = '#/inspector'");
      const option = page.getByTestId('task-select').locator('option', { hasText: 'Find the auth code' });
      await expect.poll(() => option.count(), { timeout: 10_000 }).toBe(1);
      const taskId = (await option.getAttribute('value'))!;
      await page.getByTestId('task-select').selectOption(taskId);
      await pollSourceStatus(page, 15_000).toMatch(
        new RegExp(`Task ${taskId} replayed: reproduced exactly \\(\\d+ steps\\)\\.`),
      );
      await page.getByTestId('last').click();
      expect(await page.getByTestId('state-value').textContent()).toBe('completed');
      expect(await highlightedPaths(page)).toEqual(['completed']);
      await page.screenshot({ path: join(artifacts, 'inspector-web-replay.png'), fullPage: true });
      expect(errors).toEqual([]);
    } finally {
      await page.close();
      await relay.close();
    }
  }, 90_000);

  it("follows the web app's own runtime live: its actors appear as they start and end as they end", async () => {
    const relay = await createRelay({ header: createRecorder().header, appDir });
    const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
    const page = await context.newPage();
    const errors = pageErrors(page);
    try {
      await runWebDemo(page, relay.url);
      await page.evaluate("location.hash = '#/inspector?source=app'");
      await pollSourceStatus(page, 10_000).toBe("Live: this app's runtime.");
      // The app's actors appear as they start, and end as they end: supervisor, session, tasks.
      await expect
        .poll(() => page.locator('.actor .actor-name').allTextContents(), { timeout: 30_000 })
        .toEqual(
          expect.arrayContaining([
            'supervisor',
            expect.stringMatching(/^session/),
            expect.stringMatching(/ · t_/),
          ]),
        );
      await expect
        .poll(() => page.locator('.actor .actor-state').allTextContents(), { timeout: 30_000 })
        .toContain('completed');
      await page.screenshot({ path: join(artifacts, 'inspector-app-live.png'), fullPage: true });

      expect(errors).toEqual([]);
    } finally {
      await context.close();
      await relay.close();
    }
  }, 90_000);

  it('inspectInBrowser: a page sends its runtime to the Stately inspector window (its page stood in for: no internet), redacted', async () => {
    const pageDir = join(work, 'stately-page');
    await build({
      root: join(here, 'stately-page'),
      logLevel: 'error',
      resolve: { conditions: ['source', 'browser', 'module', 'import', 'default'] },
      build: { outDir: pageDir, target: 'es2022' },
    });
    const relay = await createRelay({ appDir: pageDir });
    const context = await browser.newContext();
    // The hosted inspector's page, stood in for by one that does what it does: tell its opener it
    // is connected, and keep the inspection events the opener posts.
    await context.route('https://stately.ai/**', (route) =>
      route.fulfill({
        contentType: 'text/html',
        body: `<!doctype html><title>stand-in</title><script>
          window.received = [];
          addEventListener('message', (e) => { if (e.data && typeof e.data._version === 'string') window.received.push(e.data); });
          window.opener.postMessage({ type: '@statelyai.connected' }, '*');
        </script>`,
      }),
    );
    const page = await context.newPage();
    const errors = pageErrors(page);
    try {
      await page.goto(`${relay.url}/`);
      const popup = context.waitForEvent('page');
      await page.getByRole('button', { name: /Run a task/ }).click();
      const stately = await popup;
      expect(stately.url()).toBe('https://stately.ai/inspect');
      await page.waitForSelector('body[data-done="completed"]');
      type Received = {
        type: string;
        name?: string;
        definition?: string;
        snapshot?: { value?: unknown };
        event?: { type: string };
      }[];
      const received = () => stately.evaluate('window.received') as Promise<Received>;
      await expect
        .poll(async () => (await received()).some((event) => event.snapshot?.value === 'completed'), {
          timeout: 10_000,
        })
        .toBe(true);
      const events = await received();
      const actors = events.filter((event) => event.type === '@xstate.actor');
      expect(actors[0]).toMatchObject({ name: 'supervisor' });
      const task = actors.find((actor) => /^t_/.test(actor.name ?? ''));
      expect(JSON.parse(task!.definition!)).toMatchObject({ states: { running: expect.any(Object) } });
      expect(new Set(events.map((event) => event.type))).toEqual(
        new Set([
          '@xstate.actor',
          '@xstate.event',
          '@xstate.snapshot',
          '@xstate.microstep',
          '@xstate.action',
        ]),
      );
      expect(events.map((event) => event.event?.type)).toEqual(
        expect.arrayContaining(['task.started', 'model.responded']),
      );
      const text = JSON.stringify(events);
      expect(text).toContain('the key is [redacted]');
      expect(text).not.toContain('not-a-real-secret-0123456789');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
      await relay.close();
    }
  }, 90_000);

  it('follows a live `troupe run --inspect` session through the relay', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const server = await startFakeAnthropic({
      handler: async () => {
        await held;
        return textStep('the answer, live');
      },
    });
    const child = spawnCli(
      ['run', '--inspect', '--agent', 'explore', '--store', join(work, 'store'), 'find the answer'],
      cliEnv(join(work, 'home'), server.url),
    );
    let stderr = '';
    child.stderr!.on('data', (chunk) => {
      stderr += chunk;
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    try {
      const url = await inspectorUrlIn(() => stderr);
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#\/inspector\?source=relay$/);
      await page.goto(url);
      await pollSourceStatus(page, 15_000).toBe('Live: following the relay.');
      // The model call is held: the page shows the task thinking, live.
      await expect
        .poll(() => page.locator('.actor .actor-state').allTextContents(), { timeout: 15_000 })
        .toContain('running.thinking');
      await page.screenshot({ path: join(artifacts, 'inspector-live-thinking.png'), fullPage: true });
      release();
      await expect
        .poll(() => page.locator('.actor .actor-state').allTextContents(), { timeout: 15_000 })
        .toContain('completed');
      await page.locator('.actor', { hasText: 'explore · t_' }).click();
      expect(await page.getByTestId('state-value').textContent()).toBe('completed');
      expect(await page.locator('[data-testid="chart"] [data-active]').getAttribute('data-path')).toBe(
        'completed',
      );
      expect(await page.locator('.actor .actor-name').allTextContents()).toEqual(
        expect.arrayContaining(['supervisor', expect.stringMatching(/^explore · t_/)]),
      );
      await page.screenshot({ path: join(artifacts, 'inspector-live-done.png'), fullPage: true });
      expect(await exited).toBe(0);
    } finally {
      release();
      child.kill();
      await page.close();
      await server.close();
    }
  }, 120_000);

  it("opens a task of the CLI's file store through the relay (`troupe replay --inspect`) and steps through its replay", async () => {
    // A real CLI run writes the store: one tool call (grep), then the answer.
    const server = await startFakeAnthropic({
      handler: (request) =>
        toolResultsOf(request).length
          ? textStep('the answer is in README.md')
          : toolStep('grep', { pattern: 'troupe', output_mode: 'files_with_matches' }),
    });
    const store = join(work, 'cli-store');
    const env = cliEnv(join(work, 'home-store'), server.url);
    const cli = (args: string[]) => spawnCli(args, env);
    const run = cli(['run', '--agent', 'explore', '--store', store, 'where is the answer']);
    const ran = await new Promise<number | null>((resolve) => run.on('exit', resolve));
    await server.close();
    expect(ran).toBe(0);

    const replay = cli(['replay', '--inspect', '--store', store]);
    let stdout = '';
    replay.stdout!.on('data', (chunk) => {
      stdout += chunk;
    });
    const exited = new Promise<number | null>((resolve) => replay.on('exit', resolve));
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    const errors = pageErrors(page);
    try {
      const url = await inspectorUrlIn(() => stdout);
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#\/inspector\?source=store$/);
      expect(stdout).toContain(`(it opens the tasks of ${store})`);
      await page.goto(url);
      await pollSourceStatus(page, 15_000).toBe(`1 task in the CLI store ${store}: pick one to replay it.`);
      const option = page.locator('[data-testid="cli-tasks"] option');
      expect(await option.count()).toBe(1);
      expect(await option.textContent()).toBe('[explore] where is the answer · completed');
      const value = (await option.getAttribute('value'))!;
      const taskId = value.replace(/^cli:/, '');
      expect(taskId).toMatch(/^t_/);
      await page.getByTestId('task-select').selectOption(value);
      await pollSourceStatus(page, 15_000).toMatch(
        new RegExp(`^Task ${taskId} replayed: reproduced exactly \\(\\d+ steps\\)\\.$`),
      );

      // The page steps through the same timeline the relay served, frame by frame.
      const response = await fetch(`${new URL(url).origin}/store/tasks/${taskId}/replay`);
      const served = (await response.json()) as RelayReplay;
      const model = buildTimelineModel(parseTimeline(served.timeline, 'the relay'));
      const counter = await page.getByTestId('step').textContent();
      expect(counter).toBe(`step 0 / ${model.frames.length - 1}`);
      const states = model.frames.map((frame) => formatStateValue(frame.actors.get(frame.sessionId)!.value));
      expect(states).toContain('running.acting');
      for (let index = 0; index < model.frames.length; index++) {
        expect(await page.getByTestId('state-value').textContent(), `step ${index + 1}`).toBe(states[index]);
        expect(await highlightedPaths(page), `step ${index + 1}`).toEqual(
          activePaths(model.frames[index]!.actors.get(model.frames[index]!.sessionId)!.value),
        );
        if (states[index] === 'running.acting')
          await page.screenshot({ path: join(artifacts, 'inspector-cli-store-acting.png'), fullPage: true });
        await page.getByTestId('forward').click();
      }
      await page.getByTestId('back').click();
      expect(await page.getByTestId('state-value').textContent()).toBe(states.at(-2));
      await page.getByTestId('last').click();
      expect(await page.getByTestId('state-value').textContent()).toBe('completed');
      await page.screenshot({ path: join(artifacts, 'inspector-cli-store-done.png'), fullPage: true });

      // Straight to the task: #/inspector?source=store&task=ID
      await page.goto(`${new URL(url).origin}/?x=1#/inspector?source=store&task=${taskId}`);
      await pollSourceStatus(page, 15_000).toMatch(
        new RegExp(`^Task ${taskId} replayed: reproduced exactly`),
      );
      // And a task the store does not have, said in words.
      await page.goto(`${new URL(url).origin}/?x=2#/inspector?source=store&task=t_nope`);
      await pollSourceStatus(page, 15_000).toBe(`No task "t_nope" in the store ${store}.`);
      expect(errors).toEqual([]);
    } finally {
      replay.kill('SIGINT');
      await page.close();
    }
    expect(await exited).toBe(0);
  }, 120_000);
});
