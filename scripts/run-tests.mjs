#!/usr/bin/env node
// Runs the vitest suite, then prints the plain closing line `N passed, N failed` (with skipped),
// which CI reads whatever the runner. Exits with vitest's exit code.
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const results = join(tmpdir(), `troupe-vitest-${process.pid}.json`);
const run = spawnSync(
  process.execPath,
  [
    'node_modules/vitest/vitest.mjs',
    'run',
    '--reporter=default',
    '--reporter=json',
    `--outputFile=${results}`,
    ...process.argv.slice(2),
  ],
  { stdio: 'inherit' },
);
try {
  const report = JSON.parse(readFileSync(results, 'utf8'));
  const skipped = report.numPendingTests + report.numTodoTests;
  console.log(
    `\n${report.numPassedTests} passed, ${report.numFailedTests} failed${skipped ? `, ${skipped} skipped` : ''}`,
  );
  rmSync(results, { force: true });
} catch {
  console.log('\n0 passed, 1 failed (the test run produced no report)');
}
process.exit(run.status ?? 1);
