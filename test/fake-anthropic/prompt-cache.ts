import { createHash, type Hash } from 'node:crypto';

/** Estimated tokens of a string: about 4 characters a token, as a rough stand-in for the tokenizer. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/** Token split of one request's input: what was read from the cache, written to it, and the rest. */
export interface CacheUsage {
  input: number;
  cacheRead: number;
  cacheWrite: number;
}

const LOOKBACK = 20;

interface Segment {
  text: string;
  breakpoint: boolean;
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
        breakpoint: Boolean(record.cache_control),
      });
    } else segments.push({ text: prefix + JSON.stringify(value), breakpoint: false });
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

/**
 * A simulated prompt cache: a request's prefixes up to its `cache_control` breakpoints are stored;
 * a later request whose prefix matches a stored one reads it instead of paying for it again.
 */
export class PromptCache {
  readonly #entries = new Set<string>();
  readonly #minTokens: number;

  constructor(minTokens = 0) {
    this.#minTokens = minTokens;
  }

  /**
   * Splits the request's input tokens into cached reads, cache writes and uncached input. Like the
   * API, a lookup tries each breakpoint and up to 20 block boundaries before it; the prefix up to
   * the last breakpoint is written when it was not read.
   */
  account(body: Record<string, any>): CacheUsage {
    const segments = segmentsOf(body);
    const hash: Hash = createHash('sha256').update(String(body.model));
    let chars = 0;
    const boundaries: { key: string; tokens: number; breakpoint: boolean }[] = [];
    for (const segment of segments) {
      hash.update(segment.text);
      chars += segment.text.length;
      boundaries.push({
        key: hash.copy().digest('hex'),
        tokens: Math.ceil(chars / 4),
        breakpoint: segment.breakpoint,
      });
    }
    const total = Math.max(1, Math.ceil(chars / 4));
    const cacheable = (point: { tokens: number }) => point.tokens > 0 && point.tokens >= this.#minTokens;
    let cacheRead = 0;
    boundaries.forEach((point, index) => {
      if (!point.breakpoint) return;
      for (let back = index; back >= Math.max(0, index - LOOKBACK); back--) {
        const candidate = boundaries[back]!;
        if (cacheable(candidate) && this.#entries.has(candidate.key)) {
          cacheRead = Math.max(cacheRead, candidate.tokens);
          break;
        }
      }
    });
    const written = boundaries.filter((point) => point.breakpoint && cacheable(point));
    const last = written.at(-1);
    const cacheWrite = last ? Math.max(0, last.tokens - cacheRead) : 0;
    for (const point of written) this.#entries.add(point.key);
    return { input: Math.max(1, total - cacheRead - cacheWrite), cacheRead, cacheWrite };
  }
}
