// What the inspector's tests in Chromium share: the web app they serve and the browser.

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium } from 'playwright-core';
import { build } from 'vite';
import { chromiumLaunchOptions } from '../../chromium.js';

/** The repository's root folder. */
export const repositoryRoot = fileURLToPath(new URL('../../../', import.meta.url));

/**
 * The built web app (apps/web/dist when it is built, else a build into `work`/web) and Debian's
 * Chromium, headless. The caller closes the browser.
 */
export async function openInspectorBrowser(work: string): Promise<{ appDir: string; browser: Browser }> {
  let appDir = join(repositoryRoot, 'apps', 'web', 'dist');
  if (!existsSync(join(appDir, 'index.html'))) {
    appDir = join(work, 'web');
    await build({ root: join(repositoryRoot, 'apps', 'web'), logLevel: 'error', build: { outDir: appDir } });
  }
  const browser = await chromium.launch(chromiumLaunchOptions);
  return { appDir, browser };
}
