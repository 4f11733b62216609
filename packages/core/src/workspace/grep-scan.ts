import type { WorkspaceFileSystem } from './file-system.js';
import { listSearchFiles } from './grep-files.js';
import type { GrepFileResult, GrepLine, GrepQuery, GrepSink } from './grep-types.js';
import { compilePattern, type PatternRunner, startInlinePatternRunner } from './pattern-runner.js';
import { scanTextBlocks } from './text-blocks.js';

/** Files searched at the same time. */
const CONCURRENCY = 16;

/** What the JavaScript scan needs of a file system. */
export type ScanSource = Pick<WorkspaceFileSystem, 'glob' | 'readText' | 'locate' | 'startPatternRunner'>;

/** Keeps in `before` the last `count` lines up to `lastLine`, taking them from the end of `text`. */
function rememberTail(before: GrepLine[], text: string, lastLine: number, count: number): void {
  const tail: GrepLine[] = [];
  let end = text.length;
  let line = lastLine;
  for (;;) {
    const start = end === 0 ? -1 : text.lastIndexOf('\n', end - 1);
    tail.unshift({ line, text: text.slice(start + 1, end), match: false });
    if (start === -1 || tail.length === count) break;
    end = start;
    line--;
  }
  before.push(...tail);
  if (before.length > count) before.splice(0, before.length - count);
}

function keepLine(result: GrepFileResult, line: GrepLine, query: GrepQuery): void {
  if (result.lines.length < query.maxLinesPerFile) result.lines.push(line);
}

/** Searches one file line by line; undefined when it has no match or is binary. */
async function searchFile(
  source: ScanSource,
  query: GrepQuery,
  path: string,
  regex: PatternRunner,
  pretest: boolean,
) {
  const result: GrepFileResult = { path, count: 0, lines: [] };
  const keep = query.mode === 'content';
  const before: GrepLine[] = [];
  let afterLeft = 0;
  let lastKept = 0;
  const scan = await scanTextBlocks(
    source.readText(source.locate(path), 'grep', query.signal),
    async (text, firstLine, lineCount) => {
      // Most blocks hold no match at all: the runner tests the whole block once before splitting it.
      const matches = await regex.matchLines(text, pretest && afterLeft === 0);
      if (matches.length === 0 && afterLeft === 0) {
        if (keep && query.before > 0) rememberTail(before, text, firstLine + lineCount - 1, query.before);
        return true;
      }
      const matching = new Set(matches);
      const parts = text.split('\n');
      for (let index = 0; index < parts.length; index++) {
        const number = firstLine + index;
        const value = parts[index]!;
        const matched = matching.has(index);
        if (matched) result.count++;
        if (!keep) continue;
        if (matched) {
          for (const context of before) if (context.line > lastKept) keepLine(result, context, query);
          before.length = 0;
          keepLine(result, { line: number, text: value, match: true }, query);
          lastKept = number;
          afterLeft = query.after;
        } else if (afterLeft > 0) {
          afterLeft--;
          keepLine(result, { line: number, text: value, match: false }, query);
          lastKept = number;
        } else if (query.before > 0) {
          before.push({ line: number, text: value, match: false });
          if (before.length > query.before) before.shift();
        }
      }
      return true;
    },
    query.signal,
  );
  return scan.binary || result.count === 0 ? undefined : result;
}

/**
 * The JavaScript search engine, used when a file system has no engine of its own or that engine
 * refuses a pattern: lists the target's files through `source.glob` (dot files included, symbolic
 * links and ignored directories skipped), streams each through the confined `readText`, skips files
 * holding a NUL byte, and reports files in path order. The pattern runs in the source's
 * `startPatternRunner` (a worker thread under `query.patternTimeoutMs` per block in Node), so a
 * pattern that backtracks catastrophically fails the search (with the runner's error) instead of
 * blocking; a runner that stops for another reason (abort, crash) fails it too.
 */
export async function scanSearch(source: ScanSource, query: GrepQuery, sink: GrepSink): Promise<void> {
  compilePattern(query.pattern, query.ignoreCase);
  // The block pre-test is only sound without look-around (which could see across line ends).
  const pretest = !/\(\?<?[=!]/.test(query.pattern);
  const files = await listSearchFiles(source, query);
  const regex = source.startPatternRunner
    ? source.startPatternRunner(query.pattern, query.ignoreCase, query.patternTimeoutMs, query.signal)
    : startInlinePatternRunner(query.pattern, query.ignoreCase, query.signal);
  try {
    await searchFiles(source, query, files, sink, regex, pretest);
  } finally {
    await regex.close();
  }
  query.signal.throwIfAborted();
}

async function searchFiles(
  source: ScanSource,
  query: GrepQuery,
  files: string[],
  sink: GrepSink,
  regex: PatternRunner,
  pretest: boolean,
): Promise<void> {
  let failure: unknown;
  let next = 0;
  const pending = new Map<number, Promise<GrepFileResult | undefined>>();
  const start = (index: number) => {
    const path = files[index];
    if (path !== undefined)
      pending.set(
        index,
        searchFile(source, query, path, regex, pretest).catch(() => {
          // A file that cannot be read is skipped; a runner that stopped fails the whole search
          // (never a silent "no matches").
          if (regex.failure !== undefined) failure ??= regex.failure;
          return undefined;
        }),
      );
  };
  for (; next < Math.min(CONCURRENCY, files.length); next++) start(next);
  for (let index = 0; index < files.length; index++) {
    const result = await pending.get(index);
    pending.delete(index);
    if (failure !== undefined) break;
    start(next++);
    if (result && !sink(result)) break;
  }
  // Let searches already started finish quietly; their results are not wanted.
  await Promise.allSettled(pending.values());
  if (failure !== undefined) throw failure;
}
