// The published packages of this repository and how they are packed, as the npm registry would get
// them. One home for both, used by check-packages.mjs (publint, attw), release-dry-run.mjs and the
// consumer tests (test/consumers), so every step packs the same way.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root folder. */
export const root = fileURLToPath(new URL('..', import.meta.url));

/** The pnpm that packs (the repository's `packageManager`), run through npx. */
const PNPM = ['-y', 'pnpm@10.34.9'];

/**
 * Every package under packages/ and apps/ that is not `private`: `{ folder, manifest }`, in a
 * stable order (by folder).
 */
export function publishedPackages() {
  return ['packages', 'apps']
    .flatMap((parent) => readdirSync(join(root, parent)).map((name) => join(root, parent, name)))
    .sort()
    .flatMap((folder) => {
      let manifest;
      try {
        manifest = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8'));
      } catch {
        return [];
      }
      return manifest.private === true ? [] : [{ folder, manifest }];
    });
}

/**
 * Packs every published package with `pnpm pack` (which replaces `workspace:` ranges with real
 * versions) into `destination`, in one pnpm process. The packages must be built (`pnpm build`).
 * Returns `{ name, version, folder, tarball }` per package, `tarball` an absolute path.
 * Throws an Error naming a package whose dist/ is missing or whose tarball did not appear.
 */
export function packAll(destination) {
  const packages = publishedPackages();
  for (const { folder, manifest } of packages) {
    const entry = manifest.exports?.['.']?.default ?? manifest.bin;
    const built = readdirSync(folder).includes('dist');
    if (entry !== undefined && !built)
      throw new Error(`${manifest.name} (${folder}) is not built: run \`pnpm build\` before packing it`);
  }
  mkdirSync(destination, { recursive: true });
  execFileSync(
    'npx',
    [
      ...PNPM,
      '--recursive',
      ...packages.flatMap(({ folder }) => ['--filter', `./${folder.slice(root.length)}`]),
      'pack',
      '--pack-destination',
      destination,
    ],
    { cwd: root, stdio: 'pipe' },
  );
  const made = readdirSync(destination);
  return packages.map(({ folder, manifest }) => {
    const file = `${manifest.name.replace(/^@/, '').replace('/', '-')}-${manifest.version}.tgz`;
    if (!made.includes(file))
      throw new Error(`pnpm pack made no ${file} for ${manifest.name} in ${destination}`);
    return { name: manifest.name, version: manifest.version, folder, tarball: join(destination, file) };
  });
}
