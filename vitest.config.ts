import { availableParallelism } from 'node:os';
import { playwright } from '@vitest/browser-playwright';
import { defineConfig } from 'vitest/config';
import { chromiumLaunchOptions } from './test/chromium.js';

// Tests run from source: the `source` export condition points each workspace package at src/.
const conditions = ['source', 'module', 'node', 'development|production'];

// Browser tests (`*.browser.test.ts`) run in Debian's Chromium, not a downloaded browser build.
const chromium = playwright({
  launchOptions: chromiumLaunchOptions,
});

// Test files run two at a time at least. Vitest's default (one less than the cores) is one on a
// 2-core machine, where a file waiting on a child process (the CLI, Postgres, Chromium, tsc) then
// leaves a core idle. `--maxWorkers=1` runs them one at a time (to tell a flaky timing from a bug).
// docs/decisions/2026-11-26-two-test-workers.md.
const workers = Math.max(2, availableParallelism() - 1);

export default defineConfig({
  test: {
    testTimeout: 20_000,
    maxWorkers: workers,
    projects: [
      {
        resolve: { conditions },
        ssr: {
          resolve: { conditions },
          // eventsource-parser (used by the MCP SDK) publishes a `source` condition that points at .ts
          // files Node cannot load: Vite transforms it instead.
          noExternal: [/@modelcontextprotocol\/sdk/, 'eventsource-parser'],
        },
        test: {
          name: 'node',
          include: [
            'packages/*/src/**/*.test.ts',
            'packages/*/test/**/*.test.ts',
            'apps/*/src/**/*.test.ts',
            'apps/*/test/**/*.test.ts',
            'test/**/*.test.ts',
          ],
          exclude: ['**/node_modules/**', '**/dist/**', '**/*.browser.test.ts'],
          // A folder of the run where files share what is costly and the same for all (the web
          // app's production build): test/helpers/once-per-run.ts.
          globalSetup: ['test/helpers/run-folder-setup.ts'],
          testTimeout: 20_000,
          typecheck: {
            enabled: true,
            include: ['packages/core/src/**/*.test-d.ts'],
            tsconfig: 'packages/core/tsconfig.json',
          },
        },
      },
      {
        resolve: { conditions: ['source', 'browser', 'module', 'development|production'] },
        test: {
          name: 'browser',
          include: ['packages/*/src/**/*.browser.test.ts', 'packages/*/test/**/*.browser.test.ts'],
          // server-everything over Streamable HTTP for @troupe/mcp's browser test; redirecting servers
          // for @troupe/browser's fetch tool test.
          globalSetup: ['packages/mcp/test/browser-setup.ts', 'packages/browser/test/redirect-setup.ts'],
          testTimeout: 20_000,
          browser: {
            enabled: true,
            // One file at a time: the files share one origin, so its IndexedDB, OPFS and locks.
            fileParallelism: false,
            provider: chromium,
            headless: true,
            screenshotFailures: false,
            instances: [{ browser: 'chromium' }],
          },
        },
      },
    ],
  },
});
