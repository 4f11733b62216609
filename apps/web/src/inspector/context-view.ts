import type { ActorState, ContextChange } from '@troupe/inspect';
import { h, pretty, preview } from './dom.js';
import { absolute, sinceStart } from './format.js';

/** Context fields that hold a time (ms since epoch): shown relative to the run's start. */
const TIMES = new Set(['startedAt', 'deadline', 'now', 'approvalSince', 'endedAt', 'createdAt', 'at']);

const isTime = (key: string, value: unknown): value is number =>
  TIMES.has(key) && typeof value === 'number' && value > 1e12;

/** `value` with every time field inside it (`end.endedAt`, an event's `at`) written from the run's start. */
function relativeTimes(value: unknown, start: number | undefined, depth = 0): unknown {
  if (start === undefined || depth > 8 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item) => relativeTimes(item, start, depth + 1));
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [
      key,
      isTime(key, inner) ? sinceStart(inner, start) : relativeTimes(inner, start, depth + 1),
    ]),
  );
}

function shown(key: string, value: unknown, start: number | undefined, width: number): string {
  if (start !== undefined && isTime(key, value)) return sinceStart(value, start);
  return preview(relativeTimes(value, start), width);
}

function describeChange(change: ContextChange, start: number | undefined): string {
  if (change.op === 'unset') return 'removed';
  if (change.op === 'append') {
    const before = Array.isArray(change.before) ? change.before.length : 0;
    const after = Array.isArray(change.after) ? change.after.length : 0;
    return `+${after - before} item${after - before === 1 ? '' : 's'}`;
  }
  if (change.before === undefined || change.before === null)
    return `= ${shown(change.key, change.after, start, 60)}`;
  return `${shown(change.key, change.before, start, 40)} → ${shown(change.key, change.after, start, 40)}`;
}

/** Fields of two objects that differ, one line each: `- key: old` / `+ key: new`. */
function objectDiff(before: unknown, after: unknown, start: number | undefined): HTMLElement | undefined {
  if (!before || !after || typeof before !== 'object' || typeof after !== 'object') return undefined;
  if (Array.isArray(before) || Array.isArray(after)) return undefined;
  const a = before as Record<string, unknown>;
  const b = after as Record<string, unknown>;
  const lines = h('div', { class: 'diff' });
  for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
    const was = JSON.stringify(a[key]);
    const is = JSON.stringify(b[key]);
    if (was === is) continue;
    if (was !== undefined) lines.append(h('del', {}, `- ${key}: ${shown(key, a[key], start, 120)}`));
    if (is !== undefined) lines.append(h('ins', {}, `+ ${key}: ${shown(key, b[key], start, 120)}`));
  }
  return lines;
}

/**
 * An actor's context at one frame, field by field, with the fields this frame changed first and
 * marked (`data-changed`), each with what changed: a new value, appended items, a removal; an
 * object's changed fields one a line. Times, also inside objects (`end.endedAt`), are shown from the
 * run's start (`start`), a top-level one absolute on hover; `data-value` keeps the recorded value.
 */
export function contextView(
  actor: ActorState | undefined,
  changes: readonly ContextChange[],
  start?: number,
): HTMLElement {
  const panel = h('section', { class: 'context-view', 'aria-label': 'Context' }, h('h3', {}, 'Context'));
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
    const added =
      change?.op === 'append' && Array.isArray(change.after) && Array.isArray(change.before)
        ? change.after.slice(change.before.length)
        : value;
    const diff = change?.op === 'set' ? objectDiff(change.before, change.after, start) : undefined;
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
            {
              class: 'value',
              'data-value': preview(value, 200),
              title: isTime(key, value) ? absolute(value) : undefined,
            },
            change ? describeChange(change, start) : shown(key, value, start, 70),
          ),
        ),
        diff ?? h('pre', {}, pretty(relativeTimes(added, start))),
      ),
    );
  }
  return panel;
}
