import { fileURLToPath } from 'node:url';
import { type Browser, chromium } from 'playwright-core';
import { build, type PreviewServer, preview } from 'vite';
import { chromiumLaunchOptions } from '../../../test/chromium.js';
import { oncePerRun } from '../../../test/helpers/once-per-run.js';

const appRoot = fileURLToPath(new URL('..', import.meta.url));

/**
 * The app's production build, made once per test run and shared by the test files that serve it
 * (each build took about 5 s of CPU): read-only, removed after the run. `root` builds the app of
 * another checkout (default: this one's).
 */
export function builtApp(root = appRoot): Promise<string> {
  return oncePerRun(`web app production build of ${root}`, async (outDir) => {
    await build({ root, logLevel: 'warn', build: { outDir, emptyOutDir: true } });
  });
}

/** Serves a built app on a free loopback port (`root`: the app's folder, as given to {@link builtApp}). */
export async function serveApp(
  outDir: string,
  root = appRoot,
): Promise<{ server: PreviewServer; url: string }> {
  const server = await preview({
    root,
    logLevel: 'warn',
    build: { outDir },
    preview: { port: 0, host: '127.0.0.1', strictPort: false },
  });
  const address = server.httpServer.address();
  if (!address || typeof address === 'string') throw new Error('the preview server has no port');
  return { server, url: `http://127.0.0.1:${address.port}` };
}

/** Launches Debian's Chromium. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch(chromiumLaunchOptions);
}
