// Serves the built app (apps/web/dist) locally: `pnpm web` builds first, then runs this.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { preview } from 'vite';

const root = fileURLToPath(new URL('..', import.meta.url));
const size = JSON.parse(readFileSync(new URL('../dist/bundle-size.json', import.meta.url), 'utf8'));
const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
console.log(
  `App JavaScript: ${kb(size.bytes)}, ${kb(size.gzipBytes)} gzipped (budget ${kb(size.budgetGzipBytes)}).`,
);
const port = Number(process.env.PORT ?? 4173);
const server = await preview({ root, preview: { port, host: '127.0.0.1', strictPort: false } });
server.printUrls();
console.log('troupe web: open the URL above; Ctrl-C stops the server.');
