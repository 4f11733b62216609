import { and, not, or } from 'xstate';

// The checks XState's guard combinators carry: compared by identity, so a minifier's renaming of
// the combinators' functions (`not` becoming `t`) changes nothing.
const COMBINATORS = new Map<unknown, string>([
  [(not('x') as unknown as { check: unknown }).check, 'not'],
  [(and([]) as unknown as { check: unknown }).check, 'and'],
  [(or([]) as unknown as { check: unknown }).check, 'or'],
]);

const nameOf = (guard: unknown): string => {
  if (typeof guard === 'string') return guard;
  if (typeof guard === 'function') return combinedName(guard) ?? (guard.name || 'anonymous');
  if (guard && typeof guard === 'object' && typeof (guard as { type?: unknown }).type === 'string')
    return (guard as { type: string }).type;
  return 'anonymous';
};

/**
 * The name of a guard made with XState's `not`, `and` or `or`, written from the guards it
 * combines: `not(isCurrentTurn)`, `and(allCallsAnswered, overTokenBudget)`. Undefined for any
 * other function. Development and production builds give the same name.
 */
export function combinedName(guard: unknown): string | undefined {
  if (typeof guard !== 'function') return undefined;
  const { check, guards } = guard as { check?: unknown; guards?: unknown };
  const kind = COMBINATORS.get(check);
  if (!kind || !Array.isArray(guards)) return undefined;
  return `${kind}(${guards.map(nameOf).join(', ')})`;
}
