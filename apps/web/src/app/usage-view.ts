import { FINAL_TASK_EVENTS, formatTokens, type Runtime, type UsageTotals } from '@troupe/core';
import { h } from './dom.js';

const dollars = (cost: number) => `$${cost < 0.01 ? cost.toFixed(4) : cost.toFixed(2)}`;

// The panel's own styles (the app's stylesheet belongs to the pages): compact, numbers right-aligned.
const TABLE_STYLE = 'width:100%;border-collapse:collapse;font-size:0.85em;margin:0.4em 0 0.8em';
const CELL = 'padding:0.15em 0.4em;text-align:right;white-space:nowrap;font-variant-numeric:tabular-nums';
const NAME = 'padding:0.15em 0.4em;text-align:left;white-space:nowrap;font-weight:normal';
const HEAD =
  'padding:0.15em 0.4em;text-align:right;white-space:nowrap;border-bottom:1px solid #ccc;font-weight:600';

function rows(groups: Record<string, UsageTotals>): HTMLTableRowElement[] {
  return Object.entries(groups)
    .sort(([, a], [, b]) => b.cost - a.cost)
    .map(([name, totals]) =>
      h(
        'tr',
        { dataset: { usage: name } },
        h('th', { scope: 'row', style: NAME }, name),
        h('td', { style: CELL }, String(totals.tasks)),
        h('td', { style: CELL }, formatTokens(totals.input)),
        h('td', { style: CELL }, formatTokens(totals.cacheRead)),
        h('td', { style: CELL }, formatTokens(totals.cacheWrite)),
        h('td', { style: CELL }, formatTokens(totals.output)),
        h('td', { style: CELL }, totals.unpriced === totals.tasks ? '?' : dollars(totals.cost)),
      ),
    );
}

function table(label: string, groups: Record<string, UsageTotals>): HTMLTableElement {
  const head = ['tasks', 'input', 'cache read', 'cache write', 'output', 'cost'];
  return h(
    'table',
    { class: 'usage', 'aria-label': `usage by ${label}`, style: TABLE_STYLE },
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        h('th', { scope: 'col', style: `${HEAD};text-align:left` }, label),
        ...head.map((name) => h('th', { scope: 'col', style: HEAD }, name)),
      ),
    ),
    h('tbody', {}, ...rows(groups)),
  );
}

/**
 * The usage panel: tokens and estimated cost of the ended tasks in the store (`runtime.usage()`),
 * by agent and by model, refreshed when a task ends. It stops listening once removed from the page.
 */
export function usageSection(runtime: Runtime): HTMLElement {
  const body = h('div', { class: 'usage-body' }, 'No task has ended yet.');
  const section = h(
    'section',
    { class: 'usage-panel', 'aria-label': 'usage' },
    h('h2', {}, 'Usage and cost'),
    body,
  );
  let shown = false;
  const render = async () => {
    const report = await runtime.usage();
    if (report.total.tasks === 0) return;
    body.replaceChildren(
      h(
        'p',
        { class: 'usage-total' },
        `${report.total.tasks} tasks · estimated ${dollars(report.total.cost)}`,
      ),
      table('agent', report.byAgent),
      table('model', report.byModel),
      h(
        'p',
        { class: 'hint' },
        'Estimates at list prices: prompt-cache reads cost 0.1× input, writes 1.25× (2× for 1 hour).',
      ),
    );
  };
  const stops = FINAL_TASK_EVENTS.map((name) =>
    runtime.on(name, () => {
      if (shown && !section.isConnected) {
        for (const stop of stops) stop();
        return;
      }
      void render().catch(() => {});
    }),
  );
  queueMicrotask(() => {
    shown = true;
    void render().catch(() => {});
  });
  return section;
}
