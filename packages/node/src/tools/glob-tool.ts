import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { defineTool, type Tool } from '@troupe/core';
import { escapePath, glob } from 'tinyglobby';
import * as v from 'valibot';
import {
  type NodeToolsContext,
  type NodeToolsOptions,
  resolveNodeToolsOptions,
} from './node-tools-options.js';
import { comparePaths } from './path-order.js';
import { toolFailure } from './tool-failure.js';
import { truncateHead } from './truncate.js';

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
 * The `glob` tool (access `read`): lists files matching a glob pattern, newest first (or by path,
 * see `globSort`), at most `globMaxResults`. Dot files are included; `.git` and `node_modules` are
 * skipped unless the pattern names them; symbolic links are not followed.
 */
export function createGlobTool(options: NodeToolsOptions | NodeToolsContext): Tool<GlobInput> {
  const context = resolveNodeToolsOptions(options);
  const { workspace } = context;
  const order = context.globSort === 'mtime' ? 'most recently modified first' : 'sorted by path';
  return defineTool({
    name: 'glob',
    access: 'read',
    description:
      'Finds files by name with a glob pattern ("**/*.ts", "src/**/test_*.py", "*.{json,yaml}") and returns ' +
      `their paths relative to the workspace root, ${order}, at most ${context.globMaxResults}. ` +
      'Use it to find files by name; use grep to search file contents.',
    input: globInput,
    async execute({ pattern, path = '.' }, { signal }) {
      workspace.confinePattern(pattern, 'glob', 'pattern');
      const directory = await workspace.resolveExisting(path, 'glob');
      if (!(await stat(directory)).isDirectory()) {
        throw toolFailure('glob', `"${path}" is not a directory: pass a directory as path.`, { path });
      }
      const ignore = context.ignoreDirectories
        .filter((name) => !pattern.includes(name))
        .map((name) => `**/${escapePath(name)}/**`);
      const found = await glob(pattern, {
        cwd: directory,
        dot: true,
        onlyFiles: true,
        followSymbolicLinks: false,
        absolute: false,
        ignore,
        signal,
      });
      const entries: { path: string; mtime: number }[] = [];
      for (const relativePath of found) {
        const absolute = join(directory, relativePath);
        // Every match is checked again, links resolved: a pattern may still walk through a linked
        // directory or a brace expansion the pattern check did not foresee.
        const real = await workspace.confineResult(absolute);
        if (!real) continue;
        const info = await stat(real).catch(() => undefined);
        if (!info) continue;
        entries.push({ path: workspace.display(absolute), mtime: info.mtimeMs });
      }
      if (entries.length === 0) return `No files match "${pattern}" in ${workspace.display(directory)}.`;
      entries.sort((a, b) =>
        context.globSort === 'mtime' && a.mtime !== b.mtime
          ? b.mtime - a.mtime
          : comparePaths(a.path, b.path),
      );
      const shown = entries.slice(0, context.globMaxResults);
      let text = shown.map((entry) => entry.path).join('\n');
      if (entries.length > shown.length) {
        text += `\n\n[${entries.length - shown.length} more files not shown (${entries.length} in all): use a more specific pattern or path.]`;
      }
      return truncateHead(text, context.maxOutputChars, 'Use a more specific pattern or path.');
    },
  });
}
