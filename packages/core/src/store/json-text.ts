import { PersistenceError } from '../errors.js';

/**
 * The JSON text a port stores for `value`, or undefined with a refusal pushed on `refused` when it
 * has none (a BigInt, a cycle, a throwing `toJSON`): such a write is dropped and reported at the
 * next `flush()`, never retried. `what` and `where` name the write in the refusal.
 */
export function jsonTextOf(
  value: unknown,
  what: string,
  where: string,
  refused: PersistenceError[],
): string | undefined {
  try {
    const text = JSON.stringify(value);
    if (typeof text === 'string') return text;
    throw new TypeError('it has no JSON form');
  } catch (error) {
    refused.push(
      new PersistenceError(
        'PERSISTENCE_FAILED',
        `Could not write ${what} to "${where}": ${(error as Error).message}. The write was dropped; the value must be plain JSON data (no BigInt, no cycles).`,
        { path: where, cause: error },
      ),
    );
    return undefined;
  }
}

/** The refusal of a snapshot whose producer threw (the rest of its flush is written). */
export function snapshotRefusal(taskId: string, where: string, error: unknown): PersistenceError {
  return new PersistenceError(
    'PERSISTENCE_FAILED',
    `Could not produce the snapshot of task ${taskId}: ${(error as Error)?.message ?? String(error)}`,
    { path: where, cause: error },
  );
}
