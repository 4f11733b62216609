// What the inspector's tests in Chromium share: the web app they serve and the browser.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium } from 'playwright-core';
import { build } from 'vite';

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
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  return { appDir, browser };
}
