import { RE2JS } from 're2js';

/**
 * The pattern engine, loaded with @troupe/core: the `#pattern-engine-preload` import of Node and of
 * every platform but browsers (package.json `imports`), where a synchronous caller expects it.
 */
export const preloadedPatternEngine: typeof RE2JS | undefined = RE2JS;
