// A store author's use of the conformance suites, type-checked WITHOUT vitest installed: the types
// of @troupe/core/store and /testing must not name a test framework (a consumer with
// `skipLibCheck: false` would fail inside them). The suites take any framework of this shape;
// vitest's `describe`, `it`, `expect` and `afterEach` are one.
import { createMemoryStore } from '@troupe/core';
import {
  runReplaySuite,
  runTaskStoreSuite,
  type StoreSuiteFramework,
  type StoreSuiteHarness,
} from '@troupe/core/store';

/** A framework of the suites' shape, written by hand (node:test's `describe`/`it` would do too). */
export function framework(report: (failure: string) => void): StoreSuiteFramework {
  const assertion = (actual: unknown) => {
    const check = (ok: boolean, what: string) => (ok ? undefined : report(`${what}: ${String(actual)}`));
    const matchers = {
      toBe: (expected: unknown) => check(Object.is(actual, expected), 'toBe'),
      toEqual: (expected: unknown) => check(JSON.stringify(actual) === JSON.stringify(expected), 'toEqual'),
      toMatchObject: (expected: object) =>
        check(typeof actual === 'object' && expected !== null, 'toMatchObject'),
      toBeUndefined: () => check(actual === undefined, 'toBeUndefined'),
      toBeInstanceOf: (expected: abstract new (...args: never[]) => unknown) =>
        check(actual instanceof expected, 'toBeInstanceOf'),
      toContain: (item: unknown) => check(Array.isArray(actual) && actual.includes(item), 'toContain'),
      toHaveLength: (length: number) =>
        check(Array.isArray(actual) && actual.length === length, 'toHaveLength'),
      toMatch: (pattern: string | RegExp) => check(String(actual).match(pattern) !== null, 'toMatch'),
      toBeGreaterThan: (bound: number | bigint) => check(Number(actual) > bound, 'toBeGreaterThan'),
      toBeLessThanOrEqual: (bound: number | bigint) => check(Number(actual) <= bound, 'toBeLessThanOrEqual'),
    };
    return {
      ...matchers,
      rejects: {
        toBeInstanceOf: async (expected: abstract new (...args: never[]) => unknown) => {
          try {
            await actual;
            report('rejects: resolved');
          } catch (error) {
            check(error instanceof expected, 'rejects.toBeInstanceOf');
          }
        },
      },
    };
  };
  const expect = Object.assign(assertion, { any: (type: unknown) => type });
  return {
    describe: (_name, body) => body(),
    it: (_name, body) => void body(),
    expect,
    afterEach: () => undefined,
  };
}

const harness: StoreSuiteHarness = {
  create: async () => createMemoryStore(),
  reopen: async (store) => store,
};
runTaskStoreSuite('memory', framework(console.error), harness);
runReplaySuite('memory', framework(console.error), harness);
