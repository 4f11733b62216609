import { defineConfig } from 'vite';
import { bundleSizeReport } from './bundle-size.js';

// The app builds the workspace packages from source (their `source` export condition), so a
// change in @troupe/core shows up without building the package first.
export default defineConfig({
  resolve: { conditions: ['source', 'browser', 'module', 'import', 'default'] },
  build: { target: 'es2022', sourcemap: true, reportCompressedSize: false },
  plugins: [bundleSizeReport()],
});
