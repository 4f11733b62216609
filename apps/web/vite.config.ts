import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { bundleSizeReport } from './bundle-size.js';

// The app builds the workspace packages from source (their `source` export condition), so a
// change in @troupe/core shows up without building the package first.
export default defineConfig({
  resolve: {
    conditions: ['source', 'browser', 'module', 'import', 'default'],
    // The Anthropic SDK's webhook verification (server-side only) is left out of the page.
    alias: { standardwebhooks: fileURLToPath(new URL('./src/shims/standardwebhooks.ts', import.meta.url)) },
  },
  build: { target: 'es2022', sourcemap: true, reportCompressedSize: false },
  plugins: [bundleSizeReport()],
});
