import { defineConfig } from 'vitest/config';

// Tests run from source: the `source` export condition points each workspace package at src/.
export default defineConfig({
  resolve: { conditions: ['source', 'module', 'node', 'development|production'] },
  ssr: {
    resolve: { conditions: ['source', 'module', 'node', 'development|production'] },
    // eventsource-parser (used by the MCP SDK) publishes a `source` condition that points at .ts
    // files Node cannot load: Vite transforms it instead.
    noExternal: [/@modelcontextprotocol\/sdk/, 'eventsource-parser'],
  },
  test: {
    include: [
      'packages/*/src/**/*.test.ts',
      'packages/*/test/**/*.test.ts',
      'apps/*/src/**/*.test.ts',
      'apps/*/test/**/*.test.ts',
      'test/**/*.test.ts',
    ],
    exclude: ['**/node_modules/**', '**/dist/**'],
    testTimeout: 20_000,
    typecheck: {
      enabled: true,
      include: ['packages/core/src/**/*.test-d.ts'],
      tsconfig: 'packages/core/tsconfig.json',
    },
  },
});
