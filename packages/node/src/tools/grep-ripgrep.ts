import { spawn } from 'node:child_process';
import { closeSync } from 'node:fs';
import { join } from 'node:path';
import {
  comparePaths,
  type GrepEngine,
  type GrepFileResult,
  type GrepQuery,
  SearchPatternError,
} from '@troupe/core/workspace';
import { openFilesInDirectorySync } from './confined-open.js';

/** Thrown when ripgrep refuses a pattern its regex syntax does not support; the caller falls back. */
export class RipgrepPatternError extends SearchPatternError {
  override name = 'RipgrepPatternError';
}

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

/** Files handed to one ripgrep process (each an open descriptor; Node raises the descriptor limit to the hard limit). */
const BATCH = 1024;

/** ripgrep processes running at once for one search. */
const IN_FLIGHT = 2;

/** The first descriptor number after standard input, output and error. */
const FIRST_FD = 3;

/** Where a child process reaches the descriptor it inherited at `fd`. */
const FD_PATH = '/dev/fd/';

/**
 * ripgrep's arguments: it searches the files it is handed (each an inherited descriptor, or
 * standard input when there are none) and never walks a directory itself.
 */
function argumentsFor(query: GrepQuery, descriptors: number): string[] {
  const args = ['--no-config', '--encoding', 'none', '--json'];
  args.push(query.ignoreCase ? '--ignore-case' : '--case-sensitive');
  if (query.mode === 'content' && query.before > 0) args.push('--before-context', String(query.before));
  if (query.mode === 'content' && query.after > 0) args.push('--after-context', String(query.after));
  args.push('--regexp', query.pattern, '--');
  if (descriptors === 0) args.push('-');
  for (let index = 0; index < descriptors; index++) args.push(`${FD_PATH}${FIRST_FD + index}`);
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

function withoutNewline(text: string): string {
  return text.endsWith('\n') ? text.slice(0, -1) : text;
}

/**
 * Opens the files of one batch (paths relative to the root), one verified directory handle per
 * directory ({@link openFilesInDirectorySync}). Returns, per file, its descriptor, or `undefined`
 * when it is gone, is no regular file, or now leads outside the workspace: it is then skipped.
 */
function openBatch(query: GrepQuery, paths: readonly string[]): (number | undefined)[] {
  const byDirectory = new Map<string, number[]>();
  paths.forEach((path, index) => {
    const slash = path.lastIndexOf('/');
    const directory = slash === -1 ? '' : path.slice(0, slash);
    const indexes = byDirectory.get(directory) ?? [];
    indexes.push(index);
    byDirectory.set(directory, indexes);
  });
  const descriptors: (number | undefined)[] = paths.map(() => undefined);
  try {
    for (const [directory, indexes] of byDirectory) {
      const names = indexes.map((index) => paths[index]!.slice(directory === '' ? 0 : directory.length + 1));
      const opened = openFilesInDirectorySync(join(query.root, directory), names, query.root);
      indexes.forEach((index, position) => {
        descriptors[index] = opened[position];
      });
    }
  } catch (error) {
    for (const descriptor of descriptors) if (descriptor !== undefined) closeSync(descriptor);
    throw error;
  }
  return descriptors;
}

/**
 * Runs ripgrep once over `descriptors` (inherited as descriptors 3, 4, ...; it reopens each through
 * `/dev/fd/N`, so it reads exactly the files opened here) and feeds each output line to `onLine`;
 * `onLine` returns `false` to stop (ripgrep is then killed). The descriptors are closed as soon as
 * ripgrep has started. Resolves when ripgrep has exited; rejects with
 * {@link RipgrepPatternError} when it refused the pattern, or an Error when it failed.
 */
function run(
  command: string,
  query: GrepQuery,
  descriptors: readonly number[],
  onLine: (line: string) => boolean,
): Promise<void> {
  return new Promise((resolve, reject) => {
    let child: ReturnType<typeof spawn>;
    try {
      child = spawn(command, argumentsFor(query, descriptors.length), {
        cwd: query.root,
        stdio: ['ignore', 'pipe', 'pipe', ...descriptors],
      });
    } finally {
      // The child holds its own copies now (or was never started).
      for (const descriptor of descriptors) closeSync(descriptor);
    }
    let stopped = false;
    const stop = () => {
      if (stopped) return;
      stopped = true;
      child.kill('SIGTERM');
    };
    const onAbort = () => stop();
    query.signal.addEventListener('abort', onAbort, { once: true });
    // Attached first: a spawn that fails (out of descriptors) emits it, without any pipe.
    child.on('error', (error) => {
      query.signal.removeEventListener('abort', onAbort);
      reject(error);
    });
    const { stdout, stderr: stderrStream } = child;
    if (!stdout || !stderrStream) return;
    let carry = '';
    let stderr = '';
    stdout.setEncoding('utf8');
    stderrStream.setEncoding('utf8');
    stdout.on('data', (chunk: string) => {
      if (stopped) return;
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
    stderrStream.on('data', (chunk: string) => {
      if (stderr.length < 4096) stderr += chunk;
    });
    child.on('close', (code) => {
      query.signal.removeEventListener('abort', onAbort);
      if (query.signal.aborted) return reject(query.signal.reason);
      if (stopped || code === 0 || code === 1) return resolve();
      if (/regex parse error|error parsing regex|look-around|backreferences/i.test(stderr)) {
        return reject(new RipgrepPatternError(stderr.trim()));
      }
      reject(new Error(`ripgrep failed (exit code ${code}): ${stderr.trim() || 'no message'}`));
    });
  });
}

/**
 * Searches one batch of files (paths relative to the root, in path order). Returns their results
 * in that order, files without a match and binary files left out. Out of descriptors, it searches
 * the two halves one after the other; a single file that still cannot be opened fails the search.
 */
async function searchBatch(
  command: string,
  query: GrepQuery,
  paths: readonly string[],
): Promise<GrepFileResult[]> {
  try {
    return await searchOnce(command, query, paths);
  } catch (error) {
    // Out of descriptors (a low limit, or many searches at once): the batch is split, not skipped.
    const code = (error as NodeJS.ErrnoException).code;
    if ((code !== 'EMFILE' && code !== 'ENFILE') || paths.length <= 1) throw error;
    const half = Math.ceil(paths.length / 2);
    const first = await searchBatch(command, query, paths.slice(0, half));
    return [...first, ...(await searchBatch(command, query, paths.slice(half)))];
  }
}

/** One ripgrep process over `paths` (see {@link searchBatch}). */
async function searchOnce(
  command: string,
  query: GrepQuery,
  paths: readonly string[],
): Promise<GrepFileResult[]> {
  const opened = openBatch(query, paths);
  const descriptors: number[] = [];
  const pathOf: string[] = [];
  opened.forEach((descriptor, index) => {
    if (descriptor === undefined) return;
    descriptors.push(descriptor);
    pathOf.push(paths[index]!);
  });
  const found = new Map<number, GrepFileResult>();
  let current: GrepFileResult | undefined;
  let currentIndex = -1;
  await run(command, query, descriptors, (line) => {
    const { type, data } = JSON.parse(line) as { type: string; data: any };
    if (type === 'begin') {
      const name = decode(data.path);
      currentIndex = name.startsWith(FD_PATH) ? Number(name.slice(FD_PATH.length)) - FIRST_FD : -1;
      const path = pathOf[currentIndex];
      current = path === undefined ? undefined : { path, count: 0, lines: [] };
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
      // A NUL byte was found: the file counts as binary and is skipped, as in the JavaScript scan.
      const binary = data.binary_offset !== null && data.binary_offset !== undefined;
      if (!binary && current.count > 0) found.set(currentIndex, current);
      current = undefined;
    }
    return true;
  });
  return [...found.entries()].sort(([a], [b]) => a - b).map(([, result]) => result);
}

/**
 * The files a search visits, listed by ripgrep (`rg --files`, its fast parallel walk; dot files
 * included, links not followed, `ignoreDirectories` and the query's glob applied as ripgrep
 * applies them), relative to the root, in path order. Only names come from here, and a name is
 * nothing until it is opened: a name seen through a directory swapped for a link is skipped when
 * its directory is verified ({@link openFilesInDirectorySync}).
 */
function listFiles(command: string, query: GrepQuery): Promise<string[]> {
  const args = ['--files', '--no-config', '--hidden', '--no-ignore', '--null'];
  for (const name of query.ignoreDirectories) args.push('--glob', `!${name}`);
  if (query.glob) args.push('--glob', query.glob);
  args.push('--', query.targetRelative);
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: query.root,
      stdio: ['ignore', 'pipe', 'pipe'],
      signal: query.signal,
    });
    const chunks: Buffer[] = [];
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      if (stderr.length < 4096) stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (query.signal.aborted) return reject(query.signal.reason);
      // 1: nothing found; 2 with a listing: some folder could not be read, the rest was listed.
      const listing = Buffer.concat(chunks).toString('utf8');
      if (code !== 0 && code !== 1 && listing === '') {
        return reject(new Error(`ripgrep failed (exit code ${code}): ${stderr.trim() || 'no message'}`));
      }
      const files = listing
        .split('\0')
        .filter((path) => path !== '')
        .map((path) => (path.startsWith('./') ? path.slice(2) : path));
      resolve(files.sort(comparePaths));
    });
  });
}

/**
 * A {@link GrepEngine} over the ripgrep executable `command`, confined like the JavaScript scan:
 * the files are listed by ripgrep but opened here ({@link openFilesInDirectorySync}), and ripgrep
 * only reads the descriptors it is handed, in batches, so a directory swapped for a link out of the
 * workspace while it runs cannot make it read there. Results come in path order.
 */
export function ripgrepEngine(command: string): GrepEngine {
  return async (query, sink) => {
    const files = await listFiles(command, query);
    const batches: string[][] = [];
    // An empty search still runs ripgrep once (on empty input), so that a bad pattern is reported.
    for (let start = 0; start === 0 || start < files.length; start += BATCH) {
      batches.push(files.slice(start, start + BATCH));
    }
    // A few batches in flight: ripgrep searches the files it is handed on one thread.
    const stop = new AbortController();
    const search = { ...query, signal: AbortSignal.any([query.signal, stop.signal]) };
    const pending = new Map<number, Promise<GrepFileResult[]>>();
    const start = (index: number) => {
      const paths = batches[index];
      if (paths !== undefined) pending.set(index, searchBatch(command, search, paths));
    };
    for (let index = 0; index < IN_FLIGHT; index++) start(index);
    try {
      for (let index = 0; index < batches.length; index++) {
        const results = await pending.get(index)!;
        pending.delete(index);
        start(index + IN_FLIGHT);
        for (const result of results) if (!sink(result)) return;
      }
    } finally {
      stop.abort(new Error('grep stopped'));
      await Promise.allSettled(pending.values());
    }
    query.signal.throwIfAborted();
  };
}
