#!/usr/bin/env node
// Packs every published package (`pnpm pack`, as the registry would get it) and runs publint and
// @arethetypeswrong/cli on each tarball; exits 1 when either reports anything (errors, warnings or
// suggestions). Run by the root `test` script after the build. The packages are ESM only, so attw
// runs with `--profile esm-only` (a CommonJS caller uses Node 20.19+ `require(esm)`). Each tarball
// must also ship the repository's LICENSE as it is (a copy in each package's folder, in `files`).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import { packAll, root } from './packages.mjs';

const LICENSE = readFileSync(join(root, 'LICENSE'), 'utf8');
const work = mkdtempSync(join(tmpdir(), 'troupe-check-packages-'));
let failures = 0;
try {
  for (const { folder, tarball } of packAll(work)) {
    const manifest = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8'));
    const data = readFileSync(tarball);
    const lint = await publint({
      pack: { tarball: data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength) },
      level: 'suggestion',
      strict: true,
    });
    const problems = lint.messages.map(
      (message) => `publint ${message.type}: ${formatMessage(message, lint.pkg)}`,
    );
    const license = spawnSync('tar', ['-xzOf', tarball, 'package/LICENSE'], { encoding: 'utf8' });
    if (license.status !== 0 || license.stdout !== LICENSE)
      problems.push(
        `the tarball's LICENSE is ${license.status !== 0 ? 'missing' : 'not the root LICENSE'}: copy ${join(root, 'LICENSE')} to ${join(folder, 'LICENSE')} and list "LICENSE" in its files`,
      );
    // A command-only package (the CLI: `bin`, no `exports`) has no import for attw to check.
    const importable = manifest.exports !== undefined || manifest.main !== undefined;
    const attw = !importable
      ? { status: 0, stdout: '', stderr: '' }
      : spawnSync(
          join(root, 'node_modules/.bin/attw'),
          [tarball, '--profile', 'esm-only', '--format', 'ascii', '--no-emoji', '--no-color'],
          { encoding: 'utf8' },
        );
    if (attw.status !== 0) problems.push(`attw:\n${attw.stdout}${attw.stderr}`);
    if (problems.length === 0)
      console.log(
        `${manifest.name}: publint${importable ? ' and attw' : ''} report nothing, LICENSE shipped`,
      );
    else {
      failures++;
      console.error(`${manifest.name} (${folder}):\n  ${problems.join('\n  ')}`);
    }
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
if (failures > 0) {
  console.error(`${failures} package(s) are not right for the npm registry (see above).`);
  process.exit(1);
}
