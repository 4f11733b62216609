import { patternEngine } from './pattern-engine.js';

/** A regular expression compiled for a linear-time engine: safe to run on any text. */
export interface UntrustedPattern {
  /** Whether the pattern matches somewhere in `text` (as `RegExp.prototype.test` does). */
  test(text: string): boolean;
}

/** Why a pattern cannot be compiled yet: the engine is loaded on demand (see `withPatternEngine`). */
export const PATTERN_ENGINE_NOT_LOADED =
  'the linear-time engine that runs patterns (re2js) is not loaded yet: compile the schema inside withPatternEngine(...), or after await loadPatternEngine() (@troupe/core)';

const compiled = new Map<string, UntrustedPattern | string>();
const CACHE_LIMIT = 1_000;

/**
 * Compiles a JSON Schema `pattern` (ECMAScript syntax) with re2js, a port of RE2 whose matching
 * time is linear in the text, so a pattern such as `^(a+)+$` cannot stall the event loop on text
 * a model wrote. ECMAScript's `\uXXXX` and `\u{X}` escapes are accepted. Returns a sentence saying
 * why when the pattern needs a backtracking engine (look-around, back-references) or does not
 * compile, or {@link PATTERN_ENGINE_NOT_LOADED} before `loadPatternEngine` has loaded re2js (in a
 * browser; not cached). Results are cached by pattern.
 */
export function compileUntrustedPattern(pattern: string): UntrustedPattern | string {
  const cached = compiled.get(pattern);
  if (cached !== undefined) return cached;
  const RE2JS = patternEngine();
  if (!RE2JS) return PATTERN_ENGINE_NOT_LOADED;
  let result: UntrustedPattern | string;
  try {
    const engine = RE2JS.compile(toRe2Syntax(pattern));
    result = { test: (text) => engine.matcher(text).find() };
  } catch (error) {
    const reason = (error as Error).message.replace(/^error parsing regexp: /, '');
    result = /Perl syntax|backreference|\(\?[=!<]/.test(reason + pattern)
      ? `it uses look-around or back-references, which need a backtracking engine (a model's text could make it run for hours); rewrite it without them (${reason})`
      : `it is not a regular expression troupe can run in linear time (${reason})`;
  }
  if (compiled.size >= CACHE_LIMIT) compiled.clear();
  compiled.set(pattern, result);
  return result;
}

/** Rewrites ECMAScript-only escapes (`\uXXXX`, `\u{X}`) as RE2's `\x{X}`; the rest is shared syntax. */
function toRe2Syntax(pattern: string): string {
  let out = '';
  for (let index = 0; index < pattern.length; index++) {
    const char = pattern[index];
    if (char !== '\\') {
      out += char;
      continue;
    }
    const next = pattern[index + 1];
    const braced = /^u\{([0-9A-Fa-f]{1,6})\}/.exec(pattern.slice(index + 1, index + 11));
    const plain = /^u([0-9A-Fa-f]{4})/.exec(pattern.slice(index + 1, index + 6));
    const hex = braced ?? plain;
    if (hex) {
      out += `\\x{${hex[1]}}`;
      index += hex[0].length;
    } else {
      out += `\\${next ?? ''}`;
      index++;
    }
  }
  return out;
}
