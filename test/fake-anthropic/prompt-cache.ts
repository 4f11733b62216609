import { createHash, type Hash } from 'node:crypto';
import { minimumCacheableTokens } from './cache-minimums.js';

export { minimumCacheableTokens } from './cache-minimums.js';

/** Estimated tokens of a string: about 4 characters a token, as a rough stand-in for the tokenizer. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/**
 * Token split of one request's input, as the API bills it: read from the cache, written to it
 * (`cacheWrite` = `cacheWrite5m` + `cacheWrite1h`, by the lifetime of the breakpoint that wrote
 * them), and the rest (`input`, uncached).
 */
export interface CacheUsage {
  input: number;
  cacheRead: number;
  cacheWrite: number;
  cacheWrite5m: number;
  cacheWrite1h: number;
}

/** What a request's input costs in units of one uncached input token: reads 0.1×, writes 1.25× (5 min) or 2× (1 h). */
export function inputCost(usage: CacheUsage): number {
  return usage.input + usage.cacheRead * 0.1 + usage.cacheWrite5m * 1.25 + usage.cacheWrite1h * 2;
}

/** Options of {@link PromptCache}. */
export interface PromptCacheOptions {
  /**
   * Prefixes shorter than this many (estimated) tokens are not cached. Default: the documented
   * minimum of the request's model ({@link minimumCacheableTokens}).
   */
  minTokens?: number;
  /** The clock entries expire by, in ms. Default `Date.now`. */
  now?: () => number;
}

const LOOKBACK = 20;
const FIVE_MINUTES = 5 * 60_000;
const ONE_HOUR = 60 * 60_000;

type Lifetime = '5m' | '1h';

interface Segment {
  text: string;
  /** The lifetime of its `cache_control`, or undefined when it is no breakpoint. */
  breakpoint: Lifetime | undefined;
}

function lifetimeOf(control: unknown): Lifetime | undefined {
  if (typeof control !== 'object' || control === null) return undefined;
  return (control as { ttl?: unknown }).ttl === '1h' ? '1h' : '5m';
}

function withoutCacheControl(value: Record<string, unknown>): string {
  const { cache_control: _ignored, ...rest } = value;
  return JSON.stringify(rest);
}

// The API caches the prefix tools → system → messages up to each `cache_control` breakpoint.
function segmentsOf(body: Record<string, any>): Segment[] {
  const segments: Segment[] = [];
  const add = (value: unknown, prefix = '') => {
    if (typeof value === 'object' && value !== null) {
      const record = value as Record<string, unknown>;
      segments.push({
        text: prefix + withoutCacheControl(record),
        breakpoint: lifetimeOf(record.cache_control),
      });
    } else segments.push({ text: prefix + JSON.stringify(value), breakpoint: undefined });
  };
  for (const tool of Array.isArray(body.tools) ? body.tools : []) add(tool, 'tool:');
  if (typeof body.system === 'string') add(body.system, 'system:');
  else for (const block of Array.isArray(body.system) ? body.system : []) add(block, 'system:');
  for (const message of Array.isArray(body.messages) ? body.messages : []) {
    const role = `${String(message?.role)}:`;
    if (Array.isArray(message?.content)) for (const block of message.content) add(block, role);
    else add(message?.content, role);
  }
  return segments;
}

/** The end of one block of a request's prefix (tools → system → messages), as the cache sees it. */
export interface Boundary {
  /** A hash of the model and the prefix up to here (`cache_control` left out). */
  key: string;
  /** Tokens of the prefix that ends here. */
  tokens: number;
  /** The lifetime of the block's `cache_control`, when it is a breakpoint. */
  breakpoint: Lifetime | undefined;
}

/** Every block boundary of a request body's prefix, in order, with the request's total tokens. */
export function prefixBoundaries(body: Record<string, any>): { boundaries: Boundary[]; total: number } {
  const hash: Hash = createHash('sha256').update(String(body.model));
  let chars = 0;
  const boundaries: Boundary[] = [];
  for (const segment of segmentsOf(body)) {
    hash.update(segment.text);
    chars += segment.text.length;
    boundaries.push({
      key: hash.copy().digest('hex'),
      tokens: Math.ceil(chars / 4),
      breakpoint: segment.breakpoint,
    });
  }
  return { boundaries, total: Math.max(1, Math.ceil(chars / 4)) };
}

/**
 * A simulated prompt cache, by Anthropic's documented rules: the prefix tools → system → messages
 * up to each `cache_control` breakpoint is stored for its lifetime (`ttl` `5m`, the default, or
 * `1h`; a read refreshes it); a later request of the same model reads the longest stored prefix
 * that ends at one of its breakpoints or at most 20 blocks before one; prefixes under the model's
 * minimum length are never stored.
 */
export class PromptCache {
  readonly #entries = new Map<string, { expires: number; lifetime: number }>();
  readonly #minTokens: number | undefined;
  readonly #now: () => number;

  /** A number is the minimum length in tokens (as before options existed). */
  constructor(options: number | PromptCacheOptions = {}) {
    const settings = typeof options === 'number' ? { minTokens: options } : options;
    this.#minTokens = settings.minTokens;
    this.#now = settings.now ?? Date.now;
  }

  /** Forgets every entry. */
  clear(): void {
    this.#entries.clear();
  }

  #live(key: string, now: number): boolean {
    const entry = this.#entries.get(key);
    if (entry === undefined) return false;
    if (entry.expires > now) return true;
    this.#entries.delete(key);
    return false;
  }

  /**
   * Splits the request's input tokens into cached reads, cache writes (by lifetime) and uncached
   * input, and updates the cache as the API would: prefixes read are refreshed, the prefixes up to
   * each breakpoint are written (what was not read is billed as a write, at the lifetime of the
   * breakpoint that covers it).
   */
  account(body: Record<string, any>): CacheUsage {
    const now = this.#now();
    const model = String(body.model);
    const minimum = this.#minTokens ?? minimumCacheableTokens(model);
    const { boundaries, total } = prefixBoundaries(body);
    const cacheable = (point: Boundary) => point.tokens > 0 && point.tokens >= minimum;
    let read: Boundary | undefined;
    boundaries.forEach((point, index) => {
      if (!point.breakpoint) return;
      for (let back = index; back >= Math.max(0, index - LOOKBACK); back--) {
        const candidate = boundaries[back]!;
        if (cacheable(candidate) && this.#live(candidate.key, now)) {
          if (!read || candidate.tokens > read.tokens) read = candidate;
          break;
        }
      }
    });
    const cacheRead = read?.tokens ?? 0;
    let covered = cacheRead;
    let cacheWrite5m = 0;
    let cacheWrite1h = 0;
    for (const point of boundaries) {
      if (!point.breakpoint || !cacheable(point)) continue;
      const lifetime = point.breakpoint === '1h' ? ONE_HOUR : FIVE_MINUTES;
      const entry = this.#entries.get(point.key);
      const longest = Math.max(entry?.lifetime ?? 0, lifetime);
      this.#entries.set(point.key, { expires: now + longest, lifetime: longest });
      if (point.tokens <= covered) continue;
      if (point.breakpoint === '1h') cacheWrite1h += point.tokens - covered;
      else cacheWrite5m += point.tokens - covered;
      covered = point.tokens;
    }
    // A read refreshes the entry for the lifetime it was written with.
    const entry = read && this.#entries.get(read.key);
    if (read && entry)
      this.#entries.set(read.key, { ...entry, expires: Math.max(entry.expires, now + entry.lifetime) });
    const cacheWrite = cacheWrite5m + cacheWrite1h;
    return {
      input: Math.max(1, total - cacheRead - cacheWrite),
      cacheRead,
      cacheWrite,
      cacheWrite5m,
      cacheWrite1h,
    };
  }
}
