#!/usr/bin/env node
// The fake Anthropic server as ONE process: `node test/fake-anthropic/bin.mjs [options of main.ts]`.
// tsx's loader is registered in this process (no `npx`/`tsx` wrapper processes in between), so a
// SIGTERM sent to this pid reaches the server, which closes its connections and exits; the
// esbuild service tsx starts is a child that exits with it.
import { register } from 'tsx/esm/api';

register();
await import('./main.ts');
