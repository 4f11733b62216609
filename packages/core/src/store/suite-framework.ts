// The test framework the conformance suites (store, replay) are run with, as the suites use it:
// named structurally, so that their types name no test framework (a consumer type-checking with
// `skipLibCheck: false` needs no vitest installed). vitest's `describe`, `it`, `expect` and
// `afterEach` are one such framework; so is anything else with these members.

/** A constructor, as `toBeInstanceOf` takes it. */
export type SuiteConstructor = abstract new (...args: never[]) => unknown;

/**
 * The matchers the suites call on `expect(actual)`, with vitest's (and Jest's) meaning: each
 * throws (or records a failure) when `actual` does not match.
 */
export interface SuiteAssertion {
  /** `Object.is` equality. */
  toBe(expected: unknown): void;
  /** Deep equality. */
  toEqual(expected: unknown): void;
  /** `actual` has at least the properties of `expected`, deeply. */
  toMatchObject(expected: object): void;
  /** `actual` is `undefined`. */
  toBeUndefined(): void;
  /** `actual` is an instance of `expected`. */
  toBeInstanceOf(expected: SuiteConstructor): void;
  /** An array containing `item` or a string containing it. */
  toContain(item: unknown): void;
  /** `actual` has a `length` of `length`. */
  toHaveLength(length: number): void;
  /** `actual`, a string, matches the pattern (or contains the string). */
  toMatch(expected: string | RegExp): void;
  /** `actual > bound`. */
  toBeGreaterThan(bound: number | bigint): void;
  /** `actual <= bound`. */
  toBeLessThanOrEqual(bound: number | bigint): void;
  /** The matchers on the reason of `actual`, a promise that must reject. */
  rejects: {
    /** The rejection's reason is an instance of `expected`. */
    toBeInstanceOf(expected: SuiteConstructor): Promise<void>;
  };
}

/**
 * `expect` as the suites call it: an assertion on a value (with a message naming what failed), and
 * `expect.any(Type)`.
 */
export interface SuiteExpect {
  (actual: unknown, message?: string): SuiteAssertion;
  /** A value that matches anything made by `type` (inside `toMatchObject`). */
  any(type: unknown): unknown;
}

/**
 * The parts of a test framework a conformance suite uses. Pass vitest's:
 * `{ describe, it, expect, afterEach }` from `vitest`.
 */
export interface SuiteFramework {
  /** Groups the tests `body` declares under `name`. */
  describe: (name: string, body: () => void) => void;
  /** Declares one test; `timeoutMs` overrides the framework's default. */
  it: (name: string, body: () => Promise<void>, timeoutMs?: number) => void;
  expect: SuiteExpect;
  /** Runs `body` after each test. */
  afterEach: (body: () => Promise<void> | void) => void;
}
