import type { AnyStateNode } from 'xstate';

/** One transition of a machine, as the chart draws it. */
export interface ChartTransition {
  /** The state it is declared on. */
  source: AnyStateNode;
  /** Where it goes; empty when it has no target (it runs actions and stays). */
  targets: AnyStateNode[];
  /** The event type (`always` for an eventless transition). */
  event: string;
  /** The guard's name as the definition gives it, if any. */
  guard?: string;
  /** `event [guard]`. */
  text: string;
}

/**
 * Every transition of a state node and of the states below it, in document order. A guard's name
 * is the definition's own (`hasToolCalls`, `not(isCurrentTurn)` as the recorder writes combined
 * guards), never a function's name, so a development and a production build read the same.
 */
export function transitionsOf(root: AnyStateNode): ChartTransition[] {
  const out: ChartTransition[] = [];
  const visit = (state: AnyStateNode) => {
    const declared = [...state.transitions.values()].flat();
    for (const definition of [...declared, ...(state.always ?? [])]) {
      const event = definition.eventType || 'always';
      const guard = guardName(definition.guard);
      out.push({
        source: state,
        targets: [...(definition.target ?? [])],
        event,
        ...(guard ? { guard } : {}),
        text: guard ? `${event} [${guard}]` : event,
      });
    }
    for (const child of Object.values(state.states) as AnyStateNode[]) visit(child);
  };
  visit(root);
  return out;
}

function guardName(guard: unknown): string | undefined {
  if (typeof guard === 'string') return guard;
  if (guard && typeof guard === 'object' && typeof (guard as { type?: unknown }).type === 'string')
    return (guard as { type: string }).type;
  return undefined;
}
