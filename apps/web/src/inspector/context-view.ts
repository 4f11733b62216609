import type { ActorState, ContextChange } from '@troupe/inspect';
import { h, pretty, preview } from './dom.js';

function describeChange(change: ContextChange): string {
  if (change.op === 'unset') return 'removed';
  if (change.op === 'append') {
    const before = Array.isArray(change.before) ? change.before.length : 0;
    const after = Array.isArray(change.after) ? change.after.length : 0;
    return `+${after - before} item${after - before === 1 ? '' : 's'}`;
  }
  if (change.before === undefined) return `= ${preview(change.after, 60)}`;
  return `${preview(change.before, 40)} → ${preview(change.after, 40)}`;
}

/**
 * An actor's context at one frame, field by field, with the fields this frame changed first and
 * marked (`data-changed`), each with what changed: a new value, appended items, a removal.
 */
export function contextView(actor: ActorState | undefined, changes: readonly ContextChange[]): HTMLElement {
  const panel = h('section', { class: 'context-view', 'aria-label': 'Context' }, h('h2', {}, 'Context'));
  if (!actor) {
    panel.append(h('p', { class: 'muted' }, 'No actor selected.'));
    return panel;
  }
  const changed = new Map(changes.map((change) => [change.key, change]));
  const keys = [
    ...changes.map((change) => change.key),
    ...Object.keys(actor.context).filter((key) => !changed.has(key)),
  ];
  if (keys.length === 0) panel.append(h('p', { class: 'muted' }, 'This actor has no context.'));
  for (const key of [...new Set(keys)]) {
    const change = changed.get(key);
    const value = actor.context[key];
    const shown =
      change?.op === 'append' && Array.isArray(change.after) && Array.isArray(change.before)
        ? change.after.slice(change.before.length)
        : value;
    panel.append(
      h(
        'details',
        {
          class: `field${change ? ' changed' : ''}`,
          'data-key': key,
          'data-changed': change ? change.op : undefined,
        },
        h(
          'summary',
          {},
          h('span', { class: 'key' }, key),
          h(
            'span',
            { class: 'value', 'data-value': preview(value, 200) },
            change ? describeChange(change) : preview(value, 70),
          ),
        ),
        h('pre', {}, pretty(shown)),
      ),
    );
  }
  return panel;
}
