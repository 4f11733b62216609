// What the inspector's tests in Chromium share: the web app they serve, the browser, the folder of
// their screenshots, and the page over one recorded timeline.

import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  buildTimelineModel,
  createRecorder,
  formatTimeline,
  type Timeline,
  type TimelineModel,
} from '@troupe/inspect';
import { createRelay, type Relay } from '@troupe/inspect/node';
import { type Browser, chromium, type Page } from 'playwright-core';
import { build } from 'vite';
import { afterAll, beforeAll, expect } from 'vitest';
import { chromiumLaunchOptions } from '../../chromium.js';

/** The repository's root folder. */
export const repositoryRoot = fileURLToPath(new URL('../../../', import.meta.url));

/** Where the inspector's tests save their screenshots (look at them). */
export const artifacts = fileURLToPath(new URL('./artifacts/', import.meta.url));

/**
 * The built web app (apps/web/dist when it is built, else a build into `work`/web) and Debian's
 * Chromium, headless; makes the {@link artifacts} folder. The caller closes the browser.
 */
export async function openInspectorBrowser(work: string): Promise<{ appDir: string; browser: Browser }> {
  mkdirSync(artifacts, { recursive: true });
  let appDir = join(repositoryRoot, 'apps', 'web', 'dist');
  if (!existsSync(join(appDir, 'index.html'))) {
    appDir = join(work, 'web');
    await build({ root: join(repositoryRoot, 'apps', 'web'), logLevel: 'error', build: { outDir: appDir } });
  }
  const browser = await chromium.launch(chromiumLaunchOptions);
  return { appDir, browser };
}

/** The inspector over one recorded timeline, for the tests of one file (see {@link useInspector}). */
export class InspectorOverTimeline {
  /** A temporary folder, removed after the file's tests. */
  readonly work: string;
  browser!: Browser;
  /** Serves the web app (a relay with a fresh recorder's header). */
  relay!: Relay;
  /** The timeline written as JSON lines, the file the page opens. */
  file = '';
  /** The timeline's frames, as the page steps through them. */
  model!: TimelineModel;

  constructor(prefix: string) {
    this.work = mkdtempSync(join(tmpdir(), prefix));
  }

  /** Serves the app, launches Chromium, and writes `timeline` to `work`/`fileName`. */
  async start(timeline: Timeline, fileName: string): Promise<void> {
    const { appDir, browser } = await openInspectorBrowser(this.work);
    this.browser = browser;
    this.relay = await createRelay({ header: createRecorder().header, appDir });
    this.model = buildTimelineModel(timeline);
    this.file = join(this.work, fileName);
    writeFileSync(this.file, formatTimeline(timeline));
  }

  async close(): Promise<void> {
    await this.browser?.close();
    await this.relay?.close();
    rmSync(this.work, { recursive: true, force: true });
  }

  /** A page `width`×900 px that has opened the timeline file and shows step 0; its uncaught errors go to `errors`. */
  async open(width: number): Promise<{ page: Page; errors: string[] }> {
    const page = await this.browser.newPage({ viewport: { width, height: 900 } });
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${this.relay.url}/#/inspector`);
    await page.getByTestId('timeline-file').setInputFiles(this.file);
    await this.expectStep(page, 0);
    return { page, errors };
  }

  /** Waits until the page shows step `index` of the timeline's frames. */
  async expectStep(page: Page, index: number): Promise<void> {
    await expect
      .poll(() => page.getByTestId('step').textContent())
      .toBe(`step ${index} / ${this.model.frames.length - 1}`);
  }
}

/**
 * The calling test file's inspector over the timeline `record` makes: recorded, written to
 * `fileName` and served in Chromium before the file's first test (within `timeoutMs`), all closed
 * and removed after its last.
 */
export function useInspector(options: {
  prefix: string;
  fileName: string;
  record: () => Promise<Timeline>;
  timeoutMs?: number;
}): InspectorOverTimeline {
  const inspector = new InspectorOverTimeline(options.prefix);
  beforeAll(async () => {
    await inspector.start(await options.record(), options.fileName);
  }, options.timeoutMs ?? 120_000);
  afterAll(() => inspector.close());
  return inspector;
}
