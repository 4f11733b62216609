import { Worker } from 'node:worker_threads';
import { type PatternRunner, toolFailure } from '@troupe/core/workspace';

// The worker's code, inline so that it runs the same from source (tests) and from dist. It compiles
// each pattern once and answers, for a block of lines, the indices of the lines that match.
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const cache = new Map();
const compile = (pattern, flags) => {
  const key = flags + '\\u0000' + pattern;
  let regex = cache.get(key);
  if (!regex) {
    try { regex = new RegExp(pattern, flags + 'u'); } catch { regex = new RegExp(pattern, flags); }
    cache.set(key, regex);
  }
  return regex;
};
parentPort.on('message', ({ id, pattern, flags, pretest, text }) => {
  const matches = [];
  if (!pretest || compile(pattern, flags + 'm').test(text)) {
    const line = compile(pattern, flags);
    const lines = text.split('\\n');
    for (let index = 0; index < lines.length; index++) if (line.test(lines[index])) matches.push(index);
  }
  parentPort.postMessage({ id, matches });
});
`;

/** The error for the model when one block of text took the pattern longer than `limitMs`. */
function timeoutFailure(pattern: string, limitMs: number) {
  return toolFailure(
    'grep',
    `The pattern ${JSON.stringify(pattern)} ran for more than ${limitMs} ms on one block of text ` +
      '(catastrophic backtracking, usually nested quantifiers such as (a+)+ next to look-around); the search was ' +
      'stopped. Simplify the pattern, or drop the look-around so that ripgrep can run it.',
    { pattern },
  );
}

/**
 * Starts a worker thread that runs `pattern` (JavaScript syntax, Unicode mode when it allows it)
 * on text a model chose, so that catastrophic backtracking cannot block the event loop: past
 * `limitMs` for one block, the worker is terminated and the search fails.
 */
export function startRegexWorker(
  pattern: string,
  ignoreCase: boolean,
  limitMs: number,
  signal: AbortSignal,
): PatternRunner {
  const worker = new Worker(WORKER_SOURCE, { eval: true });
  worker.unref();
  const flags = ignoreCase ? 'i' : '';
  const waiting = new Map<number, { resolve(matches: number[]): void; reject(error: unknown): void }>();
  let nextId = 0;
  let failure: unknown;
  const failAll = (error: unknown) => {
    failure ??= error;
    for (const entry of waiting.values()) entry.reject(failure);
    waiting.clear();
    void worker.terminate();
  };
  const onAbort = () => failAll(signal.reason);
  if (signal.aborted) onAbort();
  else signal.addEventListener('abort', onAbort, { once: true });
  worker.on('message', ({ id, matches }: { id: number; matches: number[] }) => {
    waiting.get(id)?.resolve(matches);
    waiting.delete(id);
  });
  worker.on('error', failAll);
  // One block at a time, so the time limit counts only the block's own work, not a queue.
  const send = (text: string, pretest: boolean): Promise<number[]> => {
    if (failure !== undefined) return Promise.reject(failure);
    const id = nextId++;
    return new Promise<number[]>((resolve, reject) => {
      const timer = setTimeout(() => failAll(timeoutFailure(pattern, limitMs)), limitMs);
      waiting.set(id, {
        resolve: (matches) => {
          clearTimeout(timer);
          resolve(matches);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      });
      worker.postMessage({ id, pattern, flags, pretest, text });
    });
  };
  // The limit starts once the worker runs, not while a loaded machine starts it.
  let queue: Promise<unknown> = new Promise((resolve) => {
    worker.once('online', resolve);
    worker.once('exit', resolve);
  });
  return {
    get failure() {
      return failure;
    },
    matchLines(text, pretest) {
      const result = queue.then(() => send(text, pretest));
      queue = result.catch(() => undefined);
      return result;
    },
    async close() {
      signal.removeEventListener('abort', onAbort);
      await worker.terminate();
    },
  };
}
