/**
 * The documented minimum length of a cacheable prompt prefix, in tokens, for a model id: 4,096 for
 * Claude Opus 4.5 / 4.6 and Haiku 4.5, 2,048 for Haiku 3 / 3.5, 1,024 for the other Claude models
 * (Sonnet 3.7 / 4 / 4.5 / 4.6, Opus 4 / 4.1). A model id that is not Claude's (a test's stand-in,
 * such as `m`) has no minimum.
 */
export function minimumCacheableTokens(model: string): number {
  const id = model.toLowerCase();
  if (/opus-4-[5-9]|haiku-4-5/.test(id)) return 4096;
  if (/haiku-3|3-5-haiku|3-haiku/.test(id)) return 2048;
  if (id.startsWith('claude')) return 1024;
  return 0;
}
