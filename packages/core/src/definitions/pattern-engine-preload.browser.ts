import type { RE2JS } from 're2js';

/**
 * In browsers (the `browser` condition of package.json `imports`), the pattern engine is not part of
 * the page's start: `loadPatternEngine` fetches it as a chunk of its own when a schema has a pattern.
 */
export const preloadedPatternEngine: typeof RE2JS | undefined = undefined;
