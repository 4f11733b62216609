import { spawn } from 'node:child_process';
import type { GrepEngine, GrepFileResult, GrepQuery, GrepSink } from './grep-types.js';
import { comparePaths } from './path-order.js';

/** Thrown when ripgrep refuses a pattern its regex syntax does not support; the caller falls back. */
export class RipgrepPatternError extends Error {}

const availability = new Map<string, Promise<boolean>>();

/** Whether `command --version` runs; looked up once per command and cached. */
export function isRipgrepAvailable(command: string): Promise<boolean> {
  let known = availability.get(command);
  if (!known) {
    known = new Promise<boolean>((resolve) => {
      const child = spawn(command, ['--version'], { stdio: 'ignore' });
      child.on('error', () => resolve(false));
      child.on('close', (code) => resolve(code === 0));
    });
    availability.set(command, known);
  }
  return known;
}

function argumentsFor(query: GrepQuery, json: boolean): string[] {
  const args = ['--no-config', '--hidden', '--no-ignore', '--encoding', 'none'];
  args.push(query.ignoreCase ? '--ignore-case' : '--case-sensitive');
  for (const name of query.ignoreDirectories) args.push('--glob', `!${name}`);
  if (query.glob) args.push('--glob', query.glob);
  if (json) {
    args.push('--json', '--sort', 'path');
    if (query.mode === 'content' && query.before > 0) args.push('--before-context', String(query.before));
    if (query.mode === 'content' && query.after > 0) args.push('--after-context', String(query.after));
  } else {
    args.push('--count', '--null', '--with-filename');
  }
  args.push('--regexp', query.pattern, '--', query.targetRelative);
  return args;
}

interface RipgrepText {
  text?: string;
  bytes?: string;
}

function decode(value: RipgrepText | undefined): string {
  if (!value) return '';
  return value.text ?? Buffer.from(value.bytes ?? '', 'base64').toString('utf8');
}

function displayPath(path: string): string {
  return path.startsWith('./') ? path.slice(2) : path;
}

function withoutNewline(text: string): string {
  return text.endsWith('\n') ? text.slice(0, -1) : text;
}

/**
 * Runs ripgrep and feeds each output line to `onLine`; `onLine` returns `false` to stop (ripgrep is
 * then killed). Resolves when ripgrep has exited; rejects with {@link RipgrepPatternError} when it
 * refused the pattern, or an Error when it failed without producing anything.
 */
function run(
  command: string,
  query: GrepQuery,
  args: string[],
  onLine: (line: string) => boolean,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: query.root, stdio: ['ignore', 'pipe', 'pipe'] });
    let carry = '';
    let stderr = '';
    let stopped = false;
    let produced = false;
    const stop = () => {
      if (stopped) return;
      stopped = true;
      child.kill('SIGTERM');
    };
    const onAbort = () => stop();
    query.signal.addEventListener('abort', onAbort, { once: true });
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      if (stopped) return;
      produced = true;
      const text = carry + chunk;
      let start = 0;
      let end = text.indexOf('\n', start);
      while (end !== -1) {
        if (!onLine(text.slice(start, end))) {
          stop();
          return;
        }
        start = end + 1;
        end = text.indexOf('\n', start);
      }
      carry = text.slice(start);
    });
    child.stderr.on('data', (chunk: string) => {
      if (stderr.length < 4096) stderr += chunk;
    });
    child.on('error', (error) => {
      query.signal.removeEventListener('abort', onAbort);
      reject(error);
    });
    child.on('close', (code) => {
      query.signal.removeEventListener('abort', onAbort);
      if (query.signal.aborted) return reject(query.signal.reason);
      if (stopped || code === 0 || code === 1) return resolve();
      if (/regex parse error|error parsing regex|look-around|backreferences/i.test(stderr)) {
        return reject(new RipgrepPatternError(stderr.trim()));
      }
      if (produced) return resolve(); // Some files could not be read; the rest was searched.
      reject(new Error(`ripgrep failed (exit code ${code}): ${stderr.trim() || 'no message'}`));
    });
  });
}

/** Content search (and any search of a single file) through `rg --json`, in path order. */
async function searchJson(command: string, query: GrepQuery, sink: GrepSink): Promise<void> {
  let current: GrepFileResult | undefined;
  await run(command, query, argumentsFor(query, true), (line) => {
    const message = JSON.parse(line) as { type: string; data: any };
    const { type, data } = message;
    if (type === 'begin') {
      current = { path: displayPath(decode(data.path)), count: 0, lines: [] };
    } else if (current && (type === 'match' || type === 'context')) {
      if (type === 'match') current.count++;
      if (query.mode === 'content' && current.lines.length < query.maxLinesPerFile) {
        current.lines.push({
          line: data.line_number,
          text: withoutNewline(decode(data.lines)),
          match: type === 'match',
        });
      }
    } else if (current && type === 'end') {
      const result = current;
      current = undefined;
      // A NUL byte was found: ripgrep stopped reading, the file counts as binary and is skipped.
      if (data.binary_offset !== null && data.binary_offset !== undefined) return true;
      if (result.count > 0) return sink(result);
    }
    return true;
  });
}

/** File and count searches of a directory through `rg --count`, sorted afterwards. */
async function searchCounts(command: string, query: GrepQuery, sink: GrepSink): Promise<void> {
  const results: GrepFileResult[] = [];
  await run(command, query, argumentsFor(query, false), (line) => {
    const separator = line.lastIndexOf('\0');
    if (separator === -1) return true;
    results.push({
      path: displayPath(line.slice(0, separator)),
      count: Number(line.slice(separator + 1)),
      lines: [],
    });
    return true;
  });
  results.sort((a, b) => comparePaths(a.path, b.path));
  for (const result of results) if (!sink(result)) return;
}

/** A {@link GrepEngine} over the ripgrep executable `command`. */
export function ripgrepEngine(command: string): GrepEngine {
  return (query, sink) =>
    query.mode === 'content' || query.targetIsFile
      ? searchJson(command, query, sink)
      : searchCounts(command, query, sink);
}
