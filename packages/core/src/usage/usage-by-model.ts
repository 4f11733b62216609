import { addUsage } from '../model/content.js';
import type { Usage } from '../model/types.js';

/**
 * A task's usage split by the model that answered, when more than one did (a fallback model, a
 * fork that continued under another agent's model). Keys are model ids as the provider reported
 * them; the parts add up to the task's `usage`.
 */
export type UsageByModel = Readonly<Record<string, Usage>>;

/** `table` with `usage` added under `model`, as a new object (own keys only, whatever the id). */
function withPart(table: UsageByModel, model: string, usage: Usage): UsageByModel {
  const next: Record<string, Usage> = {};
  for (const [key, part] of Object.entries(table))
    Object.defineProperty(next, key, { value: part, enumerable: true, writable: true, configurable: true });
  const before = Object.hasOwn(table, model) ? table[model] : undefined;
  Object.defineProperty(next, model, {
    value: before ? addUsage(before, usage) : usage,
    enumerable: true,
    writable: true,
    configurable: true,
  });
  return next;
}

/**
 * The split after one more response: undefined while every response came from one model (the
 * task's `usage` and `model` say it all, and snapshots stay as they were); from the first response
 * of another model on, the usage so far under the earlier model plus each response under its own.
 */
export function splitUsage(
  split: UsageByModel | undefined,
  before: { usage: Usage; model: string },
  response: { usage: Usage; model: string },
): UsageByModel | undefined {
  if (split) return withPart(split, response.model, response.usage);
  if (response.model === before.model || (before.usage.input === 0 && before.usage.output === 0))
    return undefined;
  return withPart(withPart({}, before.model, before.usage), response.model, response.usage);
}

/**
 * The parts of a task's usage by model: its split when it has one, else all of `usage` under
 * `model` (the one model that answered).
 */
export function usageParts(
  usage: Usage,
  model: string,
  split: UsageByModel | undefined,
): Array<[model: string, usage: Usage]> {
  return split ? Object.entries(split) : [[model, usage]];
}
