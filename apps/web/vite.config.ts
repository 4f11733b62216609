import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { builtInAgentsPlugin } from './built-in-agents.js';
import { bundleSizeReport } from './bundle-size.js';

// The app builds the workspace packages from source (their `source` export condition), so a
// change in @troupe/core shows up without building the package first.
export default defineConfig({
  resolve: {
    conditions: ['source', 'browser', 'module', 'import', 'default'],
    // The Anthropic SDK's webhook verification (server-side only) and OpenTelemetry API (a page
    // registers no OpenTelemetry SDK) are replaced by small stand-ins: see src/shims/.
    alias: {
      standardwebhooks: fileURLToPath(new URL('./src/shims/standardwebhooks.ts', import.meta.url)),
      '@opentelemetry/api': fileURLToPath(new URL('./src/shims/opentelemetry-api.ts', import.meta.url)),
    },
  },
  // Browsers that run es2022 all support <link rel=modulepreload>: no polyfill.
  build: {
    target: 'es2022',
    sourcemap: true,
    reportCompressedSize: false,
    modulePreload: { polyfill: false },
  },
  plugins: [builtInAgentsPlugin(), bundleSizeReport()],
});
