#!/usr/bin/env node
// Runs independent check commands at the same time (each argument one shell command line), as
// the test command does with the package, API, lint and import-cycle checks after the build: on a
// machine with two cores, two of them cost the time of one. Each command's output is held and
// printed whole when it ends, so the lines of two commands never mix. Exits 1 when any command
// failed, naming each that did, after all have ended.
import { spawn } from 'node:child_process';

const commands = process.argv.slice(2);
if (commands.length === 0) {
  console.error("usage: node scripts/side-by-side.mjs 'COMMAND' ['COMMAND' ...]");
  process.exit(2);
}

/** Runs `command` with sh; resolves to its exit code (1 when it could not start) and its output. */
function run(command) {
  return new Promise((resolve) => {
    const child = spawn('sh', ['-c', command], { stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks = [];
    child.stdout.on('data', (chunk) => chunks.push(chunk));
    child.stderr.on('data', (chunk) => chunks.push(chunk));
    const started = performance.now();
    child.on('error', (error) => chunks.push(Buffer.from(`${error.message}\n`)));
    child.on('close', (code, signal) => {
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      process.stdout.write(Buffer.concat(chunks));
      const how = code === 0 ? 'ok' : signal ? `killed by ${signal}` : `exit ${code ?? 1}`;
      console.log(`(${command}: ${how}, ${seconds} s)`);
      resolve(code === 0 ? 0 : 1);
    });
  });
}

const codes = await Promise.all(commands.map(run));
const failed = commands.filter((_, index) => codes[index] !== 0);
if (failed.length > 0) {
  console.error(`failed: ${failed.join('; ')}`);
  process.exit(1);
}
