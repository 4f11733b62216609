import * as v from 'valibot';
import { defineTool, type Tool } from '../tools/define-tool.js';
import type { WorkspaceFileSystem } from './file-system.js';
import { confinePattern } from './glob-pattern.js';
import { GrepOutput } from './grep-output.js';
import { scanSearch } from './grep-scan.js';
import type { GrepQuery } from './grep-types.js';
import { resolveWorkspaceToolsOptions, type WorkspaceToolsOptions } from './options.js';
import { compilePattern, SearchPatternError } from './pattern-runner.js';
import { toolFailure } from './tool-failure.js';

const lines = (what: string) =>
  v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(100), v.description(what)));

const grepInput = v.object({
  pattern: v.pipe(
    v.string(),
    v.minLength(1),
    v.description('Regular expression to search file contents for, e.g. "function\\s+load" or "TODO|FIXME".'),
  ),
  path: v.optional(
    v.pipe(v.string(), v.description('File or directory to search (default: the workspace root).')),
  ),
  glob: v.optional(
    v.pipe(
      v.string(),
      v.description(
        'Only search files matching this glob, e.g. "*.ts" or "*.{js,jsx}" (without "/" it matches file names at any ' +
          'depth; with "/" it is relative to the workspace root). Prefix with "!" to exclude instead.',
      ),
    ),
  ),
  output_mode: v.optional(
    v.pipe(
      v.picklist(['content', 'files_with_matches', 'count']),
      v.description(
        '"files_with_matches" (default) lists matching files; "content" shows matching lines; "count" gives matching lines per file.',
      ),
    ),
  ),
  '-i': v.optional(v.pipe(v.boolean(), v.description('Case-insensitive search.'))),
  '-n': v.optional(v.pipe(v.boolean(), v.description('Show line numbers in content mode (default true).'))),
  '-A': lines('Lines of context to show after each match (content mode).'),
  '-B': lines('Lines of context to show before each match (content mode).'),
  '-C': lines('Lines of context to show before and after each match (content mode).'),
  head_limit: v.optional(
    v.pipe(
      v.number(),
      v.integer(),
      v.minValue(1),
      v.description('Show only the first N results (lines, files or counts, by output mode).'),
    ),
  ),
});

/** Input of the `grep` tool. */
export type GrepInput = v.InferOutput<typeof grepInput>;

/**
 * The `grep` tool (access `read`): searches file contents with a regular expression, through the
 * file system's own engine where it has one (ripgrep in Node) and the JavaScript scan otherwise
 * (same files, same results: dot files included, `.git` and `node_modules` skipped, binary files
 * and symbolic links skipped, no ignore files). Results are in path order.
 */
export function createGrepTool(
  fileSystem: WorkspaceFileSystem,
  options: WorkspaceToolsOptions = {},
): Tool<GrepInput> {
  const resolved = resolveWorkspaceToolsOptions(options);
  const syntax = fileSystem.search?.syntax ?? 'JavaScript syntax';
  return defineTool({
    name: 'grep',
    access: 'read',
    description:
      `Searches file contents in the workspace with a regular expression (${syntax}). ` +
      'Filter files with glob ("*.ts"). output_mode "files_with_matches" ' +
      '(default) lists files, "content" shows matching lines as path:line:text with optional context ' +
      '(-A/-B/-C), "count" counts matching lines per file. Binary files, .git and node_modules are skipped; ' +
      `.gitignore is not applied.${resolved.grepAdvice ? ` ${resolved.grepAdvice}` : ''}`,
    input: grepInput,
    async execute(input, { signal }) {
      if (input.glob) confinePattern(input.glob, 'grep', 'glob', fileSystem.root);
      const target = await fileSystem.resolveExisting(input.path ?? '.', 'grep');
      const targetIsFile = (await fileSystem.stat(target))?.kind !== 'directory';
      const mode = input.output_mode ?? 'files_with_matches';
      const ignoreCase = input['-i'] ?? false;
      const around = input['-C'] ?? 0;
      let jsError: Error | undefined;
      try {
        compilePattern(input.pattern, ignoreCase);
      } catch (error) {
        jsError = error as Error;
      }
      const query: GrepQuery = {
        root: fileSystem.rootPath,
        target,
        targetRelative: fileSystem.display(target),
        targetIsFile,
        pattern: input.pattern,
        ignoreCase,
        ...(input.glob ? { glob: input.glob } : {}),
        mode,
        before: input['-B'] ?? around,
        after: input['-A'] ?? around,
        ignoreDirectories: resolved.ignoreDirectories,
        patternTimeoutMs: resolved.grepPatternTimeoutMs,
        maxLinesPerFile: Math.min(input.head_limit ?? Number.POSITIVE_INFINITY, resolved.maxOutputChars) + 1,
        signal,
      };
      const makeOutput = () =>
        new GrepOutput({
          mode,
          withContext: query.before > 0 || query.after > 0,
          lineNumbers: input['-n'] ?? true,
          headLimit: input.head_limit,
          maxChars: resolved.maxOutputChars,
          maxLineChars: resolved.maxLineChars,
        });
      const invalid = (message: string) =>
        toolFailure('grep', `Invalid regular expression ${JSON.stringify(input.pattern)}: ${message}`, {
          pattern: input.pattern,
        });
      if (fileSystem.search) {
        const output = makeOutput();
        try {
          if (await fileSystem.search.engine(query, output.add)) return output.text();
        } catch (error) {
          if (!(error instanceof SearchPatternError)) throw error;
          if (jsError) throw invalid(error.message);
        }
      }
      if (jsError) throw invalid(jsError.message);
      // A runner past its time limit fails the scan with its own error for the model.
      const output = makeOutput();
      await scanSearch(fileSystem, query, output.add);
      return output.text();
    },
  });
}
