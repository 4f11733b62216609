import { gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

/** The app's JavaScript budget, gzipped (issue #11). */
export const BUNDLE_BUDGET_BYTES = 250 * 1024;

/** One emitted JavaScript chunk and its sizes in bytes. */
export interface ChunkSize {
  file: string;
  bytes: number;
  gzipBytes: number;
  /** Module specifiers the chunk imports, statically or dynamically, as the bundler left them. */
  imports: string[];
  /** The source modules bundled into the chunk, relative to the workspace root. */
  modules: string[];
}

/**
 * Reports every JavaScript chunk's raw and gzipped size after a build, writes them to
 * `bundle-size.json` in the output directory, and fails the build when the gzipped total is over
 * {@link BUNDLE_BUDGET_BYTES}.
 */
export function bundleSizeReport(): Plugin {
  return {
    name: 'troupe-bundle-size',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks: ChunkSize[] = [];
      for (const item of Object.values(bundle)) {
        if (item.type !== 'chunk') continue;
        chunks.push({
          file: item.fileName,
          bytes: Buffer.byteLength(item.code),
          gzipBytes: gzipSync(item.code, { level: 9 }).length,
          imports: [...item.imports, ...item.dynamicImports],
          modules: item.moduleIds.map((id) =>
            id.slice(
              id.indexOf('/node_modules/') + 1 || id.indexOf('/packages/') + 1 || id.indexOf('/apps/') + 1,
            ),
          ),
        });
      }
      const gzipBytes = chunks.reduce((sum, chunk) => sum + chunk.gzipBytes, 0);
      const bytes = chunks.reduce((sum, chunk) => sum + chunk.bytes, 0);
      const kb = (n: number): string => `${(n / 1024).toFixed(1)} KB`;
      const lines = chunks.map((chunk) => `  ${chunk.file}  ${kb(chunk.bytes)}  gzip ${kb(chunk.gzipBytes)}`);
      console.log(
        `\nApp JavaScript: ${kb(bytes)}, gzip ${kb(gzipBytes)} (budget ${kb(BUNDLE_BUDGET_BYTES)} gzip)\n${lines.join('\n')}`,
      );
      this.emitFile({
        type: 'asset',
        fileName: 'bundle-size.json',
        source: `${JSON.stringify({ budgetGzipBytes: BUNDLE_BUDGET_BYTES, bytes, gzipBytes, chunks }, null, 2)}\n`,
      });
      if (gzipBytes > BUNDLE_BUDGET_BYTES) {
        this.error(
          `the app's JavaScript is ${kb(gzipBytes)} gzipped, over the ${kb(BUNDLE_BUDGET_BYTES)} budget.`,
        );
      }
    },
  };
}
