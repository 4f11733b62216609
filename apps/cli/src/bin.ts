#!/usr/bin/env node
// The `troupe` executable. Kept tiny: everything else is imported on demand (see main.ts).
import { homedir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { main } from './main.js';

const code = await main(process.argv.slice(2), {
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  cwd: process.cwd(),
  home: homedir(),
  script: fileURLToPath(import.meta.url),
  onSignal(signal, listener) {
    process.on(signal, listener);
    return () => process.off(signal, listener);
  },
});
// Exit once stdout has taken everything, even if a stray handle would keep the process alive.
process.exitCode = code;
process.stdout.write('', () => process.exit(code));
