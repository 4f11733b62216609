import type { RE2JS } from 're2js';
import { preloadedPatternEngine } from '#pattern-engine-preload';
import { DefinitionError } from '../errors.js';

/** The linear-time regular-expression engine: re2js's `RE2JS` class. */
export type PatternEngine = typeof RE2JS;

let engine: PatternEngine | undefined = preloadedPatternEngine;
let loading: Promise<void> | undefined;
// How many times a pattern was asked for while the engine was not loaded (see withPatternEngine).
let misses = 0;

/**
 * Loads the linear-time engine (re2js) that JSON Schema `pattern` and `patternProperties` run on.
 * In Node it is loaded with @troupe/core and this resolves at once; in a browser bundle it is a
 * chunk of its own, fetched on the first call. Compiling a schema that has a pattern before the
 * engine is loaded throws a {@link DefinitionError} saying so; {@link withPatternEngine} loads it
 * only when a compile needs it. Rejects with a {@link DefinitionError} when the chunk cannot be
 * loaded (a later call tries again).
 */
export function loadPatternEngine(): Promise<void> {
  if (engine) return Promise.resolve();
  loading ??= import('re2js').then(
    (module) => {
      engine = module.RE2JS;
    },
    (error: unknown) => {
      loading = undefined;
      throw new DefinitionError(
        `Could not load re2js, the linear-time engine JSON Schema patterns run on: ${(error as Error).message}. A schema with a pattern cannot be checked without it; check the network and try again.`,
        {},
        { cause: error },
      );
    },
  );
  return loading;
}

/**
 * Runs `work`, a synchronous step that may compile JSON Schemas (parsing an agent file, checking a
 * final answer, creating a tool from a schema). When it compiled a schema with a pattern before the
 * pattern engine was loaded, loads the engine and runs `work` again, so it must be safe to run twice
 * (parsing and checking are). Work that needs no pattern runs once and loads nothing. Errors of
 * `work` that are not about the engine reach the caller as they are.
 */
export async function withPatternEngine<T>(work: () => T): Promise<T> {
  const before = misses;
  try {
    const result = work();
    if (misses === before) return result;
  } catch (error) {
    if (misses === before) throw error;
  }
  await loadPatternEngine();
  return work();
}

/** Whether the pattern engine is loaded (always, outside browsers). @internal */
export function patternEngineLoaded(): boolean {
  return engine !== undefined;
}

/**
 * The engine, or `undefined` (counted as a miss for {@link withPatternEngine}) while it is not loaded.
 * @internal
 */
export function patternEngine(): PatternEngine | undefined {
  if (!engine) misses++;
  return engine;
}
