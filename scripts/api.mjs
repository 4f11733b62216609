#!/usr/bin/env node
// The public API, recorded in the repository so every change to it shows in review:
//  - one API report per public entry point, packages/<pkg>/api/<name>.api.md (API Extractor,
//    scripts/api-report.mjs);
//  - the API reference, docs/api/ (TypeDoc, Markdown; scripts/api-docs.mjs).
// `node scripts/api.mjs` (the test command, after the build) makes both in a temporary folder and
// fails, with the difference, when a committed file is not what the code makes now.
// `pnpm api:update` (`node scripts/api.mjs --update`) writes them. Both read the built .d.ts files.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { DOCS, makeDocs } from './api-docs.mjs';
import { makeReports, staleReports } from './api-report.mjs';
import { root } from './packages.mjs';

const args = process.argv.slice(2);
if (args.some((arg) => arg !== '--update')) {
  console.error('usage: node scripts/api.mjs [--update]');
  process.exit(2);
}
const update = args.includes('--update');
const UPDATE = 'pnpm api:update';

/** Every file below `dir`, as paths relative to it (none when it does not exist). */
function filesBelow(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .sort();
}

/** `diff -u` of two files or folders, at most `lines` lines of it. */
function difference(committed, made, lines = 80) {
  const diff = spawnSync('diff', ['-ruN', committed, made], { encoding: 'utf8' });
  const text = diff.stdout.split('\n');
  return text.length > lines
    ? [...text.slice(0, lines), `... (${text.length - lines} more lines)`].join('\n')
    : diff.stdout;
}

const work = mkdtempSync(join(tmpdir(), 'troupe-api-'));
const failures = [];
try {
  let started = performance.now();
  const reports = makeReports({ tempFolder: join(work, 'reports'), update });
  for (const { entry, changed, committed, made, problems } of reports) {
    for (const problem of problems) failures.push(`${entry.specifier}: ${problem}`);
    if (changed && !update)
      failures.push(
        `${relative(root, committed)} is not the API of ${entry.specifier} now:\n${difference(committed, made)}`,
      );
  }
  for (const stale of staleReports(reports)) {
    if (update) rmSync(stale);
    else failures.push(`${relative(root, stale)} reports an entry point that no longer exists`);
  }
  const reportSeconds = (performance.now() - started) / 1000;

  started = performance.now();
  const docs = join(work, 'docs');
  const { problems } = await makeDocs(docs);
  for (const problem of problems) failures.push(`API reference: ${problem}`);
  if (problems.length === 0) {
    if (update) {
      rmSync(DOCS, { recursive: true, force: true });
      mkdirSync(DOCS, { recursive: true });
      cpSync(docs, DOCS, { recursive: true });
    } else {
      const committed = filesBelow(DOCS);
      const made = filesBelow(docs);
      const same =
        committed.length === made.length &&
        committed.every(
          (file, at) =>
            file === made[at] &&
            readFileSync(join(DOCS, file), 'utf8') === readFileSync(join(docs, file), 'utf8'),
        );
      if (!same) failures.push(`docs/api is not what the TSDoc makes now:\n${difference(DOCS, docs)}`);
    }
  }
  const docsSeconds = (performance.now() - started) / 1000;
  console.log(
    `api: ${reports.length} API reports (${reportSeconds.toFixed(1)} s), API reference (${docsSeconds.toFixed(1)} s)${update ? ' written' : ' checked'}`,
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}
if (failures.length > 0) {
  console.error(failures.join('\n\n'));
  console.error(
    update
      ? '\nFix the problems above (document every public export), then run `pnpm api:update` again.'
      : `\nThe public API changed or is not documented. Check the difference, then run \`${UPDATE}\` and commit packages/*/api and docs/api.`,
  );
  process.exit(1);
}
