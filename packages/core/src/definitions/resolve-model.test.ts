import { describe, expect, it } from 'vitest';
import { DEFAULT_MODEL_IDS, resolveModel, resolveModelAlias } from './resolve-model.js';

const models = { default: 'main-model' };

describe('resolveModel', () => {
  it('prefers call site, then definition, then the parent', () => {
    expect(resolveModel({ callSite: 'opus', definition: { model: 'haiku' }, parent: 'p', models })).toBe(
      DEFAULT_MODEL_IDS.opus,
    );
    expect(resolveModel({ definition: { model: 'haiku' }, parent: 'p', models })).toBe(
      DEFAULT_MODEL_IDS.haiku,
    );
    expect(resolveModel({ definition: {}, parent: 'parent-model', models })).toBe('parent-model');
    expect(resolveModel({ definition: { model: 'inherit' }, parent: 'parent-model', models })).toBe(
      'parent-model',
    );
    expect(resolveModel({ callSite: 'inherit', definition: { model: 'sonnet' }, models })).toBe(
      DEFAULT_MODEL_IDS.sonnet,
    );
    expect(resolveModel({ models })).toBe('main-model');
  });

  it('maps small and plan to the configured models, with their defaults', () => {
    expect(resolveModelAlias('small', models)).toBe('claude-haiku-5-5');
    expect(resolveModelAlias('small', { ...models, haiku: 'h' })).toBe('h');
    expect(resolveModelAlias('small', { ...models, small: 's', haiku: 'h' })).toBe('s');
    expect(resolveModelAlias('plan', models)).toBe('main-model');
    expect(resolveModelAlias('plan', { ...models, plan: 'big' })).toBe('big');
    expect(resolveModelAlias('SONNET', { ...models, sonnet: 'my-sonnet' })).toBe('my-sonnet');
    expect(resolveModelAlias('opus', models)).toBe('claude-opus-5-5');
  });

  it('passes ids through and maps display names to aliases', () => {
    expect(resolveModel({ callSite: 'claude-sonnet-4-5-20250929', models })).toBe(
      'claude-sonnet-4-5-20250929',
    );
    expect(resolveModel({ definition: { model: 'Claude Opus 4.1' }, models: { ...models, opus: 'o' } })).toBe(
      'o',
    );
    expect(resolveModel({ definition: { model: 'fable' }, models })).toBe('fable');
  });
});
