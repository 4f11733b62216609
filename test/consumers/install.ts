// One throwaway npm project outside the workspace that every consumer app of the tests shares:
// every published package packed (as the registry would get it), the tarballs and the apps'
// other dependencies installed with ONE `npm install`, then each app copied into a folder of
// its own under it (Node and bundlers find the shared node_modules by walking up).
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { packAll } from '../../scripts/packages.mjs';

const run = promisify(execFile);

/** The repository root. */
export const REPO = fileURLToPath(new URL('../..', import.meta.url));
/** The examples people copy (examples/<name>), installed like any consumer app. */
export const EXAMPLES = join(REPO, 'examples');
/** The consumer apps of the tests alone (test/consumers/apps/<name>). */
export const TEST_APPS = join(REPO, 'test/consumers/apps');

/** What {@link installConsumers} made. */
export interface Consumers {
  /** The npm project's folder (in the OS temporary folder). */
  root: string;
  /** The folder of an app, by its folder name under examples/ or test/consumers/apps/. */
  app(name: string): string;
  /** Seconds spent packing and installing. */
  timings: { packSeconds: number; installSeconds: number };
  /** Removes everything. */
  remove(): void;
}

interface Manifest {
  name: string;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

interface Packed {
  name: string;
  version: string;
  tarball: string;
}

function appFolders(): string[] {
  return [EXAMPLES, TEST_APPS].flatMap((parent) =>
    readdirSync(parent, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => join(parent, entry.name)),
  );
}

/**
 * The shared project's dependencies: every tarball, and every other dependency any app declares
 * (one range each: two apps asking for different ranges of one package is an error naming both).
 * An app's `@troupe/*` range must accept the packed version.
 */
function sharedDependencies(packed: Packed[]): Record<string, string> {
  const dependencies: Record<string, string> = {};
  const askedBy: Record<string, string> = {};
  for (const folder of appFolders()) {
    const manifest = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as Manifest;
    for (const [name, range] of Object.entries({ ...manifest.dependencies, ...manifest.devDependencies })) {
      const ours = packed.find((pkg) => pkg.name === name);
      if (ours) {
        if (range !== `^${ours.version}`)
          throw new Error(
            `${folder}/package.json: ${name} is "${range}"; the packed version is ^${ours.version}`,
          );
        continue;
      }
      if (dependencies[name] !== undefined && dependencies[name] !== range)
        throw new Error(`${name}: ${askedBy[name]} asks for ${dependencies[name]}, ${folder} for ${range}`);
      dependencies[name] = range;
      askedBy[name] = folder;
    }
  }
  for (const pkg of packed) dependencies[pkg.name] = `file:${pkg.tarball}`;
  return dependencies;
}

/**
 * Packs every published package (they must be built) and installs the tarballs with npm into a
 * fresh folder under the OS temporary folder, with the apps' other dependencies (npm's own cache,
 * `--prefer-offline`), then copies every app of examples/ and test/consumers/apps/ into it
 * without its node_modules. Throws an Error with npm's output when the install fails.
 */
export async function installConsumers(): Promise<Consumers> {
  const root = mkdtempSync(join(tmpdir(), 'troupe-consumers-'));
  try {
    let started = performance.now();
    const packed: Packed[] = packAll(join(root, 'tarballs'));
    const packSeconds = (performance.now() - started) / 1000;
    const project = join(root, 'project');
    mkdirSync(project);
    writeFileSync(
      join(project, 'package.json'),
      `${JSON.stringify({ name: 'troupe-consumers', private: true, type: 'module', dependencies: sharedDependencies(packed) }, null, 2)}\n`,
    );
    started = performance.now();
    try {
      await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'], {
        cwd: project,
        maxBuffer: 16 * 1024 * 1024,
      });
    } catch (error) {
      const failure = error as Error & { stdout?: string; stderr?: string };
      throw new Error(`npm install in ${project} failed:\n${failure.stdout ?? ''}${failure.stderr ?? ''}`);
    }
    const installSeconds = (performance.now() - started) / 1000;
    for (const folder of appFolders()) {
      const name = folder.slice(folder.lastIndexOf('/') + 1);
      cpSync(folder, join(project, 'apps', name), {
        recursive: true,
        filter: (source) => !/[/\\](node_modules|dist)$/.test(source),
      });
    }
    return {
      root: project,
      app: (name) => join(project, 'apps', name),
      timings: { packSeconds, installSeconds },
      remove: () => rmSync(root, { recursive: true, force: true, maxRetries: 3 }),
    };
  } catch (error) {
    rmSync(root, { recursive: true, force: true, maxRetries: 3 });
    throw error;
  }
}
