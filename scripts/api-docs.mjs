// The API reference in docs/api/: Markdown made by TypeDoc (with typedoc-plugin-markdown, so it
// reads in the repository) from the TSDoc of every public entry point, the same entry points as
// the API reports (scripts/api-report.mjs), read from the built .d.ts files (which keep the TSDoc).
// Every public export must be documented (TypeDoc's `validation.notDocumented`; the properties of
// interfaces are not yet required, see the README) and every warning is an error. No source links: a line moved in a source file changes no page.
// Used by scripts/api.mjs (`pnpm api:update` writes docs/api, the test command checks it).
import { join, relative } from 'node:path';
import { Application, Converter, ReflectionKind } from 'typedoc';
import { entryPoints } from './api-report.mjs';
import { root } from './packages.mjs';

/** Where the reference is kept. */
export const DOCS = join(root, 'docs/api');

/**
 * Makes the reference into `out` (a folder TypeDoc empties first). Returns `{ problems }`, the
 * warnings and errors TypeDoc reported (any is a failure), each naming the export and its file.
 */
export async function makeDocs(out) {
  const entries = entryPoints();
  const problems = [];
  const app = await Application.bootstrapWithPlugins({
    entryPoints: entries.map((entry) => entry.dts),
    entryPointStrategy: 'resolve',
    plugin: ['typedoc-plugin-markdown'],
    out,
    name: 'troupe',
    readme: 'none',
    tsconfig: join(root, 'scripts/tsconfig.api.json'),
    skipErrorChecking: true,
    disableSources: true,
    excludePrivate: true,
    excludeInternal: true,
    excludeExternals: true,
    validation: { notExported: true, invalidLink: true, notDocumented: true },
    // Every kind but the members of interfaces and object types (Property): functions, classes,
    // interfaces, type aliases, variables, enums, methods and call signatures.
    requiredToBeDocumented: [
      'Enum',
      'EnumMember',
      'Variable',
      'Function',
      'Class',
      'Interface',
      'Method',
      'Accessor',
      'TypeAlias',
    ],
    packagesRequiringDocumentation: [...new Set(entries.map((entry) => entry.pkg))],
    treatWarningsAsErrors: true,
    logLevel: 'Warn',
    // Markdown that reads well on a code host: one page per entry point (module).
    hidePageHeader: true,
    hideBreadcrumbs: true,
    useCodeBlocks: true,
    parametersFormat: 'table',
    interfacePropertiesFormat: 'table',
    entryFileName: 'README.md',
    outputFileStrategy: 'modules',
  });
  app.logger.log = (message, level) => {
    if (level >= 2) problems.push(typeof message === 'string' ? message : String(message));
  };
  // Modules are named after their import specifier (`@troupe/core/store`), not their path (TypeDoc
  // names a module by its file's path below the entry points' common folder, without `/index`).
  const byPath = new Map(
    entries.map((entry) => [
      relative(join(root, 'packages'), entry.dts)
        .replace(/\.d\.ts$/, '')
        .replace(/\/index$/, ''),
      entry.specifier,
    ]),
  );
  app.converter.on(Converter.EVENT_RESOLVE_BEGIN, (context) => {
    for (const module of context.project.getReflectionsByKind(ReflectionKind.Module)) {
      const name = byPath.get(module.name);
      if (name === undefined) problems.push(`api-docs: no entry point is named ${module.name}`);
      else module.name = name;
    }
  });
  const project = await app.convert();
  if (project) {
    app.validate(project);
    await app.generateOutputs(project);
  } else problems.push('TypeDoc converted nothing (see the messages above)');
  return { problems, relativeOut: relative(root, out) };
}
