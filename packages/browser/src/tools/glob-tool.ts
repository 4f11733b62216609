import { defineTool, type Tool } from '@troupe/core';
import * as v from 'valibot';
import type { OpfsWorkspace } from './opfs-workspace.js';
import { globToRegExp, MAX_OUTPUT_CHARS, truncateHead } from './text.js';
import { toolFailure } from './tool-failure.js';

/** Most files `glob` lists. */
const GLOB_MAX_RESULTS = 100;

/** Directory names `glob` and `grep` skip unless a pattern names them. */
export const IGNORED_DIRECTORIES = ['.git', 'node_modules'];

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

/** The `glob` tool over OPFS (access `read`): files matching a pattern, newest first, at most 100. */
export function createOpfsGlobTool(workspace: OpfsWorkspace): Tool<v.InferOutput<typeof globInput>> {
  return defineTool({
    name: 'glob',
    access: 'read',
    description:
      'Finds files by name with a glob pattern ("**/*.ts", "src/**/test_*.py", "*.{json,yaml}") and returns ' +
      `their paths relative to the workspace root, most recently modified first, at most ${GLOB_MAX_RESULTS}. ` +
      'Use it to find files by name; use grep to search file contents.',
    input: globInput,
    async execute({ pattern, path = '.' }, { signal }) {
      if (pattern.startsWith('/') || pattern.split('/').includes('..')) {
        throw toolFailure(
          'glob',
          `Pattern "${pattern}" reaches outside the search directory (absolute or with "..").`,
          {
            pattern,
          },
        );
      }
      const segments = workspace.segments(path, 'glob');
      const entry = await workspace.entry(segments);
      if (entry?.kind !== 'directory') {
        throw toolFailure(
          'glob',
          `"${path}" is not a directory in the workspace: pass a directory as path.`,
          { path },
        );
      }
      const matcher = globToRegExp(pattern);
      const ignore = IGNORED_DIRECTORIES.filter((name) => !pattern.includes(name));
      const prefix = segments.length === 0 ? '' : `${segments.join('/')}/`;
      const found: { path: string; modified: number }[] = [];
      for await (const file of workspace.walk(segments, ignore, signal)) {
        if (!matcher.test(file.path.slice(prefix.length))) continue;
        found.push({ path: file.path, modified: (await file.handle.getFile()).lastModified });
      }
      if (found.length === 0) return `No files match "${pattern}" in ${workspace.display(segments)}.`;
      found.sort((a, b) => b.modified - a.modified || (a.path < b.path ? -1 : 1));
      const shown = found.slice(0, GLOB_MAX_RESULTS);
      let text = shown.map((file) => file.path).join('\n');
      if (found.length > shown.length) {
        text += `\n\n[${found.length - shown.length} more files not shown (${found.length} in all): use a more specific pattern or path.]`;
      }
      return truncateHead(text, MAX_OUTPUT_CHARS, 'Use a more specific pattern or path.');
    },
  });
}
