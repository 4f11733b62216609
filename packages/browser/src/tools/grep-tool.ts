import { defineTool, type Tool } from '@troupe/core';
import * as v from 'valibot';
import { IGNORED_DIRECTORIES } from './glob-tool.js';
import type { OpfsWorkspace } from './opfs-workspace.js';
import { globToRegExp, linesOf, MAX_OUTPUT_CHARS, truncateHead } from './text.js';
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
      v.description('Only search files matching this glob, e.g. "*.ts". Prefix with "!" to exclude instead.'),
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

type GrepInput = v.InferOutput<typeof grepInput>;

function compile(tool: string, pattern: string, ignoreCase: boolean): RegExp {
  try {
    return new RegExp(pattern, ignoreCase ? 'iu' : 'u');
  } catch {
    try {
      return new RegExp(pattern, ignoreCase ? 'i' : '');
    } catch (error) {
      throw toolFailure(
        tool,
        `Invalid regular expression ${JSON.stringify(pattern)}: ${(error as Error).message}`,
        {
          pattern,
        },
      );
    }
  }
}

/** Formats one file's matches in content mode: `path:line:text`, context lines with `-`. */
function contentLines(path: string, text: string, regex: RegExp, input: GrepInput): string[] {
  const all = linesOf(text);
  const before = input['-B'] ?? input['-C'] ?? 0;
  const after = input['-A'] ?? input['-C'] ?? 0;
  const numbers = input['-n'] ?? true;
  const shown = new Map<number, boolean>();
  all.forEach((line, index) => {
    if (!regex.test(line)) return;
    for (let at = Math.max(0, index - before); at <= Math.min(all.length - 1, index + after); at++) {
      if (!shown.get(at)) shown.set(at, at === index);
    }
  });
  return [...shown.keys()]
    .sort((a, b) => a - b)
    .map((index) => {
      const separator = shown.get(index) ? ':' : '-';
      return `${path}${separator}${numbers ? `${index + 1}${separator}` : ''}${all[index]}`;
    });
}

/** The `grep` tool over OPFS (access `read`): searches file contents with a JavaScript regular expression. */
export function createOpfsGrepTool(workspace: OpfsWorkspace): Tool<GrepInput> {
  return defineTool({
    name: 'grep',
    access: 'read',
    description:
      'Searches file contents in the workspace with a regular expression (JavaScript syntax). Filter files with ' +
      'glob ("*.ts"). output_mode "files_with_matches" (default) lists files, "content" shows matching lines as ' +
      'path:line:text with optional context (-A/-B/-C), "count" counts matching lines per file. Binary files, ' +
      '.git and node_modules are skipped.',
    input: grepInput,
    async execute(input, { signal }) {
      const regex = compile('grep', input.pattern, input['-i'] ?? false);
      const segments = workspace.segments(input.path ?? '.', 'grep');
      const entry = await workspace.entry(segments);
      if (!entry)
        throw toolFailure('grep', `"${input.path}" does not exist in the workspace.`, { path: input.path });
      const exclude = input.glob?.startsWith('!');
      const filter = input.glob ? globToRegExp(exclude ? input.glob.slice(1) : input.glob) : undefined;
      const files =
        entry.kind === 'file'
          ? [{ path: workspace.display(segments), handle: entry as FileSystemFileHandle }]
          : workspace.walk(segments, IGNORED_DIRECTORIES, signal);
      const mode = input.output_mode ?? 'files_with_matches';
      const results: string[] = [];
      let matches = 0;
      let matchedFiles = 0;
      for await (const file of files) {
        if (filter && filter.test(file.path) === !!exclude) continue;
        const text = await (await file.handle.getFile()).text();
        if (text.includes('\0')) continue;
        const count = linesOf(text).filter((line) => regex.test(line)).length;
        if (count === 0) continue;
        matchedFiles++;
        matches += count;
        if (mode === 'files_with_matches') results.push(file.path);
        else if (mode === 'count') results.push(`${file.path}:${count}`);
        else results.push(...contentLines(file.path, text, regex, input));
        if (input.head_limit !== undefined && results.length >= input.head_limit) break;
      }
      if (results.length === 0) return 'No matches found.';
      const shown = input.head_limit === undefined ? results : results.slice(0, input.head_limit);
      let body = shown.join('\n');
      if (mode === 'files_with_matches')
        body = `Found ${matchedFiles} ${matchedFiles === 1 ? 'file' : 'files'}\n${body}`;
      if (mode === 'count') body += `\n\nTotal: ${matches} matching lines in ${matchedFiles} files.`;
      return truncateHead(body, MAX_OUTPUT_CHARS, 'Narrow the pattern, path or glob, or use head_limit.');
    },
  });
}
