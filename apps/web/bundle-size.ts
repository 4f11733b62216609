import { gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

/**
 * The budget of the JavaScript a visit loads at start, gzipped (issues #11, #24): the entry chunk
 * and what it imports statically. Chunks loaded on demand (the Anthropic client, the inspector page,
 * the agents editor and its YAML parser) have their own budget, {@link LAZY_CHUNK_BUDGET_BYTES}; see
 * docs/decisions/2026-11-26-web-markdown-and-bundle.md.
 */
export const BUNDLE_BUDGET_BYTES = 150 * 1024;

/** The budget of each chunk loaded on demand (a dynamic `import()`), gzipped: the largest is the Anthropic client's. */
export const LAZY_CHUNK_BUDGET_BYTES = 80 * 1024;

/** One emitted JavaScript chunk and its sizes in bytes. */
export interface ChunkSize {
  file: string;
  bytes: number;
  gzipBytes: number;
  /** Module specifiers the chunk imports, statically or dynamically, as the bundler left them. */
  imports: string[];
  /** The source modules bundled into the chunk, relative to the workspace root. */
  modules: string[];
  /** Loaded on demand only (reached from the entry through dynamic imports alone). */
  lazy: boolean;
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
      // Chunks a visit loads at start: the entries and, transitively, their static imports.
      const eager = new Set<string>();
      const visit = (file: string) => {
        const item = bundle[file];
        if (eager.has(file) || item?.type !== 'chunk') return;
        eager.add(file);
        for (const imported of item.imports) visit(imported);
      };
      for (const item of Object.values(bundle))
        if (item.type === 'chunk' && item.isEntry) visit(item.fileName);
      for (const item of Object.values(bundle)) {
        if (item.type !== 'chunk') continue;
        chunks.push({
          lazy: !eager.has(item.fileName),
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
      const initial = chunks.filter((chunk) => !chunk.lazy);
      const gzipBytes = initial.reduce((sum, chunk) => sum + chunk.gzipBytes, 0);
      const bytes = initial.reduce((sum, chunk) => sum + chunk.bytes, 0);
      const totalGzipBytes = chunks.reduce((sum, chunk) => sum + chunk.gzipBytes, 0);
      const kb = (n: number): string => `${(n / 1024).toFixed(1)} KB`;
      const lines = chunks.map(
        (chunk) =>
          `  ${chunk.file}  ${kb(chunk.bytes)}  gzip ${kb(chunk.gzipBytes)}${chunk.lazy ? '  (on demand)' : ''}`,
      );
      console.log(
        `\nApp JavaScript at start: ${kb(bytes)}, gzip ${kb(gzipBytes)} (budget ${kb(BUNDLE_BUDGET_BYTES)} gzip); ` +
          `with the chunks loaded on demand: gzip ${kb(totalGzipBytes)}\n${lines.join('\n')}`,
      );
      this.emitFile({
        type: 'asset',
        fileName: 'bundle-size.json',
        source: `${JSON.stringify(
          {
            budgetGzipBytes: BUNDLE_BUDGET_BYTES,
            lazyChunkBudgetGzipBytes: LAZY_CHUNK_BUDGET_BYTES,
            bytes,
            gzipBytes,
            totalGzipBytes,
            chunks,
          },
          null,
          2,
        )}\n`,
      });
      if (gzipBytes > BUNDLE_BUDGET_BYTES) {
        this.error(
          `the JavaScript the app loads at start is ${kb(gzipBytes)} gzipped, over the ${kb(BUNDLE_BUDGET_BYTES)} budget.`,
        );
      }
      for (const chunk of chunks)
        if (chunk.lazy && chunk.gzipBytes > LAZY_CHUNK_BUDGET_BYTES)
          this.error(
            `${chunk.file}, loaded on demand, is ${kb(chunk.gzipBytes)} gzipped, over the ${kb(LAZY_CHUNK_BUDGET_BYTES)} budget of such a chunk.`,
          );
    },
  };
}
