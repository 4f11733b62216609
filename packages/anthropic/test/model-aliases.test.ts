import { describe, expect, it } from 'vitest';
import { DEFAULT_MODEL_IDS, resolveModelId, resolveModelTable } from '../src/index.js';

describe('model aliases', () => {
  it('has sensible defaults: default and plan → sonnet, small → haiku', () => {
    expect(resolveModelTable()).toEqual({
      default: 'claude-sonnet-5-5',
      small: 'claude-haiku-5-5',
      plan: 'claude-sonnet-5-5',
      haiku: DEFAULT_MODEL_IDS.haiku,
      sonnet: DEFAULT_MODEL_IDS.sonnet,
      opus: 'claude-opus-5-5',
    });
  });

  it('follows overrides: small tracks haiku, plan tracks default, and entries may name an alias', () => {
    expect(resolveModelTable({ haiku: 'h-2', default: 'opus' })).toMatchObject({
      small: 'h-2',
      plan: 'claude-opus-5-5',
    });
    expect(resolveModelTable({ default: 'd-1', plan: 'small', small: 'Sonnet' })).toMatchObject({
      default: 'd-1',
      small: 'claude-sonnet-5-5',
      plan: 'claude-sonnet-5-5',
    });
  });

  it('resolves aliases case-insensitively; inherit and empty mean default; full ids pass through', () => {
    const table = resolveModelTable({ default: 'claude-main' });
    expect(resolveModelId('inherit', table)).toBe('claude-main');
    expect(resolveModelId(undefined, table)).toBe('claude-main');
    expect(resolveModelId('  ', table)).toBe('claude-main');
    expect(resolveModelId('Haiku', table)).toBe('claude-haiku-5-5');
    expect(resolveModelId('plan', table)).toBe('claude-main');
    expect(resolveModelId(' claude-opus-4-5-20251101 ', table)).toBe('claude-opus-4-5-20251101');
    expect(resolveModelId('constructor', table)).toBe('constructor');
  });
});
