#!/usr/bin/env node
// A release without publishing: `pnpm release:dry-run [--out DIR]`.
//  1. prints what the pending changesets (.changeset/*.md) would bump (`changeset status`);
//  2. builds every package (`pnpm build`);
//  3. packs every published package into DIR (default `.release/` in the repository), the
//     tarballs `changeset publish` would send, and lists them with their sizes.
// Nothing is versioned, committed, tagged or published. A real release is `pnpm changeset version`
// (bumps versions, writes each CHANGELOG.md), a commit, then `pnpm changeset publish`.
import { execFileSync } from 'node:child_process';
import { rmSync, statSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { packAll, root } from './packages.mjs';

const args = process.argv.slice(2);
const outIndex = args.indexOf('--out');
if (args.some((arg, index) => arg !== '--out' && index !== outIndex + 1) || args.at(-1) === '--out') {
  console.error('usage: node scripts/release-dry-run.mjs [--out DIR]');
  process.exit(2);
}
const out = outIndex === -1 ? join(root, '.release') : resolve(args[outIndex + 1]);
const run = (command, commandArgs) =>
  execFileSync(command, commandArgs, { cwd: root, stdio: 'inherit', env: process.env });

run(join(root, 'node_modules/.bin/changeset'), ['status', '--verbose']);
run('npx', ['-y', 'pnpm@10.34.9', 'run', 'build', '--output-logs=errors-only']);
rmSync(out, { recursive: true, force: true });
const packed = packAll(out);
const where = isAbsolute(out) && out.startsWith(root) ? relative(root, out) : out;
console.log(`\nThe tarballs a release would publish (in ${where}):`);
for (const { name, version, tarball } of packed)
  console.log(
    `  ${name}@${version}  ${relative(out, tarball)}  ${(statSync(tarball).size / 1024).toFixed(1)} KB`,
  );
console.log('Nothing was published. Install them with `npm install <tarball>...` to try them.');
