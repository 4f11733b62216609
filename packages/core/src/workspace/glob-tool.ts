import * as v from 'valibot';
import { defineTool, type Tool } from '../tools/define-tool.js';
import type { WorkspaceFileSystem } from './file-system.js';
import { comparePaths, confinePattern, escapeGlob } from './glob-pattern.js';
import { resolveWorkspaceToolsOptions, type WorkspaceToolsOptions } from './options.js';
import { truncateHead } from './text.js';
import { toolFailure } from './tool-failure.js';

const globInput = v.object({
  pattern: v.pipe(
    v.string(),
    v.minLength(1),
    v.description('Glob pattern relative to the search directory, e.g. "**/*.ts" or "src/**/*.{js,jsx}".'),
  ),
  path: v.optional(
    v.pipe(v.string(), v.description('Directory to search in (default: the workspace root).')),
  ),
});

/** Input of the `glob` tool. */
export type GlobInput = v.InferOutput<typeof globInput>;

/**
 * The `glob` tool (access `read`): lists files matching a glob pattern relative to the search
 * directory, newest first (or by path, see `globSort`), at most `globMaxResults`. Dot files are
 * included; `.git` and `node_modules` are skipped unless the pattern names them; symbolic links
 * are not followed, and every match is re-checked to be inside the workspace.
 */
export function createGlobTool(
  fileSystem: WorkspaceFileSystem,
  options: WorkspaceToolsOptions = {},
): Tool<GlobInput> {
  const { globSort, globMaxResults, ignoreDirectories, maxOutputChars } =
    resolveWorkspaceToolsOptions(options);
  const order = globSort === 'mtime' ? 'most recently modified first' : 'sorted by path';
  return defineTool({
    name: 'glob',
    access: 'read',
    description:
      'Finds files by name with a glob pattern ("**/*.ts", "src/**/test_*.py", "*.{json,yaml}") and returns ' +
      `their paths relative to the workspace root, ${order}, at most ${globMaxResults}. ` +
      'Use it to find files by name; use grep to search file contents.',
    input: globInput,
    async execute({ pattern, path = '.' }, { signal }) {
      confinePattern(pattern, 'glob', 'pattern', fileSystem.root);
      const directory = await fileSystem.resolveExisting(path, 'glob');
      if ((await fileSystem.stat(directory))?.kind !== 'directory') {
        throw toolFailure('glob', `"${path}" is not a directory: pass a directory as path.`, { path });
      }
      const ignore = ignoreDirectories
        .filter((name) => !pattern.includes(name))
        .map((name) => `**/${escapeGlob(name)}/**`);
      const found = await fileSystem.glob({ directory, patterns: [pattern], ignore, signal });
      const entries: { path: string; modifiedMs: number }[] = [];
      for (const match of found) {
        // Every match is checked again, links resolved: a pattern may still walk through a linked
        // directory or a brace expansion the pattern check did not foresee.
        const real = await fileSystem.resolveExisting(match, 'glob').catch(() => undefined);
        const info = real === undefined ? undefined : await fileSystem.stat(real);
        if (info) entries.push({ path: match, modifiedMs: info.modifiedMs });
      }
      if (entries.length === 0) return `No files match "${pattern}" in ${fileSystem.display(directory)}.`;
      entries.sort((a, b) =>
        globSort === 'mtime' && a.modifiedMs !== b.modifiedMs
          ? b.modifiedMs - a.modifiedMs
          : comparePaths(a.path, b.path),
      );
      const shown = entries.slice(0, globMaxResults);
      let text = shown.map((entry) => entry.path).join('\n');
      if (entries.length > shown.length) {
        text += `\n\n[${entries.length - shown.length} more files not shown (${entries.length} in all): use a more specific pattern or path.]`;
      }
      return truncateHead(text, maxOutputChars, 'Use a more specific pattern or path.');
    },
  });
}
