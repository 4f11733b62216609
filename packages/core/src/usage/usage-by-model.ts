import { addUsage } from '../model/content.js';
import type { Usage } from '../model/types.js';

/**
 * A task's usage split by the model that answered, when more than one did (a fallback model, a
 * fork that continued under another agent's model). Keys are model ids as the provider reported
 * them; the parts add up to the task's `usage`.
 */
export type UsageByModel = Readonly<Record<string, Usage>>;

/**
 * The split after one more response (`usage` from `model`), given the split so far and the model
 * (`before`) that answered the responses counted in `soFar`: undefined while every response came
 * from one model (the task's `usage` and `model` say it all, and snapshots stay as they were); from
 * the first response of another model on, each model's part. A new object, without a prototype
 * (any model id is an own key).
 */
export function splitUsage(
  split: UsageByModel | undefined,
  before: string,
  soFar: Usage,
  model: string,
  usage: Usage,
): UsageByModel | undefined {
  if (!split && (model === before || soFar.input + soFar.output === 0)) return undefined;
  const next: Record<string, Usage> = Object.assign(Object.create(null), split ?? { [before]: soFar });
  const part = next[model];
  next[model] = part ? addUsage(part, usage) : usage;
  return next;
}

/**
 * The parts of a task's usage by model: its split when it has one, else all of `usage` under
 * `model` (the one model that answered).
 */
export function usageParts(usage: Usage, model: string, split: UsageByModel | undefined): [string, Usage][] {
  return Object.entries(split ?? { [model]: usage });
}
