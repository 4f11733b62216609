/**
 * How every browser test launches Debian's Chromium in a container (no sandbox, no GPU, no
 * background traffic): vitest's browser project, the web app's and the inspector's Playwright
 * tests, and the consumer apps'.
 */
export const chromiumLaunchOptions = {
  executablePath: '/usr/bin/chromium',
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
  ],
};
