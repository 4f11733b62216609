// The API report of every published package: one `packages/<pkg>/api/<name>.api.md` per public
// entry point (each `exports` subpath), written by API Extractor from the built .d.ts files, so
// every change to a package's public surface shows in review as a change of that file.
// `@troupe/core/internal` has none: it is the packages' own door into core ("no stability promise:
// names here change or go without notice", src/internal/index.ts), not a surface apps rely on.
// Used by scripts/api.mjs (`pnpm api:update` writes, the test command checks).
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CompilerState, Extractor, ExtractorConfig } from '@microsoft/api-extractor';
import { publishedPackages } from './packages.mjs';

/** Subpaths that get no report, with the reason (see above). */
export const UNREPORTED = new Map([['@troupe/core/internal', 'no stability promise (troupe packages only)']]);

/**
 * Every public entry point of every published package: `{ pkg, folder, subpath, specifier,
 * dts, report }` (`dts` the built declaration file, `report` the report's file name).
 */
export function entryPoints() {
  return publishedPackages().flatMap(({ folder, manifest }) =>
    Object.entries(manifest.exports ?? {}).flatMap(([subpath, conditions]) => {
      const specifier = subpath === '.' ? manifest.name : `${manifest.name}/${subpath.slice(2)}`;
      if (UNREPORTED.has(specifier) || typeof conditions?.types !== 'string') return [];
      const unscoped = manifest.name.replace(/^@[^/]+\//, '');
      const report = subpath === '.' ? unscoped : `${unscoped}-${subpath.slice(2).replaceAll('/', '-')}`;
      return [
        { pkg: manifest.name, folder, subpath, specifier, dts: join(folder, conditions.types), report },
      ];
    }),
  );
}

/** The TypeScript options the reports are made with: the consumers' view of the .d.ts files. */
const compilerOptions = {
  target: 'ES2022',
  lib: ['ES2023', 'DOM', 'DOM.Iterable', 'DOM.AsyncIterable'],
  module: 'NodeNext',
  moduleResolution: 'NodeNext',
  types: ['node'],
  strict: true,
  skipLibCheck: true,
};

const silent = { logLevel: 'none', addToApiReportFile: false };

function configOf(entry, entries, tempFolder) {
  return ExtractorConfig.prepare({
    configObject: {
      projectFolder: entry.folder,
      mainEntryPointFilePath: entry.dts,
      compiler: { overrideTsconfig: { compilerOptions, files: entries.map((one) => one.dts) } },
      apiReport: {
        enabled: true,
        reportFileName: entry.report,
        reportFolder: join(entry.folder, 'api'),
        reportTempFolder: tempFolder,
      },
      docModel: { enabled: false },
      dtsRollup: { enabled: false },
      tsdocMetadata: { enabled: false },
      messages: {
        compilerMessageReporting: { default: { logLevel: 'warning' } },
        // A type the API names but the entry point does not export stays visible in the report.
        extractorMessageReporting: {
          default: { logLevel: 'warning' },
          'ae-missing-release-tag': silent,
          'ae-forgotten-export': { logLevel: 'none', addToApiReportFile: true },
          'ae-internal-missing-underscore': silent,
          // Documentation and its links are TypeDoc's checks (scripts/api-docs.mjs).
          'ae-undocumented': silent,
          'ae-unresolved-link': silent,
        },
        // TSDoc's own syntax rules: TypeDoc checks the comments (scripts/api-docs.mjs).
        tsdocMessageReporting: { default: silent },
      },
    },
    configObjectFullPath: join(entry.folder, 'api-extractor.json'),
    packageJsonFullPath: join(entry.folder, 'package.json'),
  });
}

/**
 * Makes every entry point's report into `tempFolder` (one TypeScript program per package) and,
 * with `update`, writes the changed ones into `packages/<pkg>/api/`. Returns
 * `{ entry, changed, committed, made, problems }` per entry point: `changed` when the made report
 * differs from the committed one, `problems` the messages API Extractor reported.
 */
export function makeReports({ tempFolder, update }) {
  const all = entryPoints();
  const byPackage = new Map();
  for (const entry of all) byPackage.set(entry.pkg, [...(byPackage.get(entry.pkg) ?? []), entry]);
  const results = [];
  for (const entries of byPackage.values()) {
    mkdirSync(join(entries[0].folder, 'api'), { recursive: true });
    let compilerState;
    for (const entry of entries) {
      const config = configOf(entry, entries, tempFolder);
      compilerState ??= CompilerState.create(config, {
        additionalEntryPoints: entries.map((one) => one.dts),
      });
      const problems = [];
      const result = Extractor.invoke(config, {
        localBuild: update,
        compilerState,
        messageCallback: (message) => {
          // Console messages are API Extractor's own progress lines ("the report changed").
          const own = message.messageId.startsWith('console-');
          if (!own && (message.logLevel === 'warning' || message.logLevel === 'error'))
            problems.push(
              `${message.messageId}: ${message.text}${message.sourceFilePath ? ` (${message.sourceFilePath}:${message.sourceFileLine})` : ''}`,
            );
          message.handled = true;
        },
      });
      const committed = join(entry.folder, 'api', `${entry.report}.api.md`);
      const made = join(tempFolder, `${entry.report}.api.md`);
      results.push({ entry, changed: result.apiReportChanged, committed, made, problems });
    }
  }
  return results;
}

/** The text of a file, or undefined when it does not exist. */
export function readIfAny(file) {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/** Report files in the packages' api/ folders of entry points that no longer exist. */
export function staleReports(results) {
  const kept = new Set(results.map((result) => result.committed));
  return publishedPackages().flatMap(({ folder }) => {
    const dir = join(folder, 'api');
    if (!existsSync(dir)) return [];
    return readdirSync(dir)
      .filter((name) => name.endsWith('.api.md') && !kept.has(join(dir, name)))
      .map((name) => join(dir, name));
  });
}
