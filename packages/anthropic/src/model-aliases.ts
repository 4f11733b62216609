import { ValidationError } from '@troupe/core';

/** The model ids behind each alias. `default` is used for `inherit` and for requests without a model. */
export interface ModelTable {
  default: string;
  /** Fast, cheap model (the `explore` agent). */
  small: string;
  /** Planning model (the `plan` agent). */
  plan: string;
  haiku: string;
  sonnet: string;
  opus: string;
}

/** Names a request's `model` may use instead of a full id. */
export type ModelAlias = 'inherit' | 'default' | keyof Omit<ModelTable, 'default'>;

/** Built-in ids of the family aliases. */
export const DEFAULT_MODEL_IDS: Readonly<Pick<ModelTable, 'haiku' | 'sonnet' | 'opus'>> = Object.freeze({
  haiku: 'claude-haiku-5-5',
  sonnet: 'claude-sonnet-5-5',
  opus: 'claude-opus-5-5',
});

const FAMILIES = ['haiku', 'sonnet', 'opus'] as const;

function checkId(value: unknown, key: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.trim() === '')
    throw new ValidationError(`createAnthropicModel: models.${key} must be a non-empty model id or alias.`, [
      `models.${key}: expected a non-empty string, got ${JSON.stringify(value)}`,
    ]);
  return value.trim();
}

/**
 * Completes a partial table with the defaults: haiku → `claude-haiku-5-5`, sonnet →
 * `claude-sonnet-5-5`, opus → `claude-opus-5-5`, default → sonnet, small → haiku, plan → default.
 * `default`, `small` and `plan` may name a family alias (`{ default: 'opus', small: 'haiku' }`),
 * and `plan` may also say `small`. Throws a `ValidationError` naming a field that is not a non-empty string.
 */
export function resolveModelTable(models: Partial<ModelTable> = {}): ModelTable {
  const family = {} as Pick<ModelTable, 'haiku' | 'sonnet' | 'opus'>;
  for (const name of FAMILIES) family[name] = checkId(models[name], name) ?? DEFAULT_MODEL_IDS[name];
  const lookup = (value: string | undefined, known: Record<string, string>): string | undefined =>
    value === undefined ? undefined : (known[value.toLowerCase()] ?? value);
  const defaultId = lookup(checkId(models.default, 'default'), family) ?? family.sonnet;
  const small = lookup(checkId(models.small, 'small'), { ...family, default: defaultId }) ?? family.haiku;
  const plan = lookup(checkId(models.plan, 'plan'), { ...family, default: defaultId, small }) ?? defaultId;
  return { default: defaultId, small, plan, ...family };
}

/**
 * The concrete id for a model name: an alias (`inherit`, `default`, `haiku`, `sonnet`, `opus`,
 * `small`, `plan`; case-insensitive) maps through the table, an empty or missing name to
 * `default`, and anything else is taken as a full model id and returned unchanged (trimmed).
 */
export function resolveModelId(name: string | undefined, table: ModelTable): string {
  const trimmed = name?.trim() ?? '';
  if (trimmed === '') return table.default;
  const alias = trimmed.toLowerCase();
  if (alias === 'inherit') return table.default;
  if (Object.hasOwn(table, alias)) return table[alias as keyof ModelTable];
  return trimmed;
}
