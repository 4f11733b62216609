#!/usr/bin/env node
// Runs the vitest suite, then prints the plain closing line `N passed, N failed` (with skipped),
// which CI reads whatever the runner. Exits with vitest's exit code.
// The run gets a temporary folder of its own (TMPDIR), removed afterwards: a test that leaves
// something in it is named by the folder's prefix (`left in the temporary folder: ...`), and
// nothing stays in the machine's temporary folder, even from a test process killed half-way.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const results = join(tmpdir(), `troupe-vitest-${process.pid}.json`);
const runTmp = mkdtempSync(join(tmpdir(), 'troupe-test-run-'));
// Traversable by other users, as /tmp is: the throwaway Postgres runs as `nobody` when the tests run
// as root, and initdb must reach its data folder below this one (mkdtemp makes it 0700).
chmodSync(runTmp, 0o711);
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
  { stdio: 'inherit', env: { ...process.env, TMPDIR: runTmp } },
);
// tsx-<uid> is tsx's compile cache, shared by the processes of this run, not a leftover.
const left = readdirSync(runTmp).filter((name) => !/^tsx-\d+$/.test(name));
if (left.length > 0) {
  const byPrefix = new Map();
  for (const name of left) {
    const prefix = name.replace(/[-_.][^-_.]*$/, '');
    byPrefix.set(prefix, (byPrefix.get(prefix) ?? 0) + 1);
  }
  const list = [...byPrefix].map(([prefix, count]) => `${prefix}-* (${count})`).join(', ');
  console.warn(`\nleft in the temporary folder by the tests (now removed): ${list}`);
}
rmSync(runTmp, { recursive: true, force: true, maxRetries: 3 });
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
