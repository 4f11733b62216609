import type { Chart } from '@troupe/inspect/chart';
import { s } from './dom.js';

const CHART_MIN_SCALE = 0.8;

/**
 * Draws a laid-out statechart as SVG: compound states as boxes around their children, final states
 * with a double border, transitions as labelled paths. States on an `active` path get the `active`
 * class (and `data-active`), so the current state stands out and tests can read it. The chart
 * fits its pane, but never below 80% of its natural size: a wide machine scrolls instead.
 */
export function chartView(chart: Chart, active: ReadonlySet<string>): SVGElement {
  const svg = s('svg', {
    class: 'chart',
    viewBox: `0 0 ${Math.ceil(chart.width)} ${Math.ceil(chart.height)}`,
    preserveAspectRatio: 'xMidYMin meet',
    // At least 80% of its natural size, so labels stay readable; the pane scrolls beyond that.
    style: `min-width: ${Math.round(chart.width * CHART_MIN_SCALE)}px`,
    'data-machine': chart.machineId,
  });
  svg.append(
    s(
      'defs',
      {},
      s(
        'marker',
        {
          id: 'arrow',
          viewBox: '0 0 10 10',
          refX: 9,
          refY: 5,
          markerWidth: 7,
          markerHeight: 7,
          orient: 'auto',
        },
        s('path', { d: 'M0,0 L10,5 L0,10 z', class: 'arrow-head' }),
      ),
    ),
  );
  const ordered = [...chart.nodes].sort((a, b) => Number(b.compound) - Number(a.compound));
  for (const node of ordered) {
    const on = active.has(node.path);
    const group = s('g', {
      class: `state${node.compound ? ' compound' : ''}${node.final ? ' final' : ''}${on ? ' active' : ''}`,
      'data-path': node.path,
      ...(on ? { 'data-active': 'true' } : {}),
    });
    group.append(s('rect', { x: node.x, y: node.y, width: node.width, height: node.height, rx: 6, ry: 6 }));
    if (node.final)
      group.append(
        s('rect', {
          x: node.x + 3,
          y: node.y + 3,
          width: node.width - 6,
          height: node.height - 6,
          rx: 4,
          ry: 4,
        }),
      );
    const label = s(
      'text',
      node.compound
        ? { x: node.x + 8, y: node.y + 17, class: 'label' }
        : {
            x: node.x + node.width / 2,
            y: node.y + node.height / 2 + 4,
            'text-anchor': 'middle',
            class: 'label',
          },
      node.label,
    );
    group.append(label);
    svg.append(group);
  }
  for (const edge of chart.edges) {
    const [first, ...rest] = edge.points;
    if (!first) continue;
    const d = `M${first.x},${first.y} ${rest.map((point) => `L${point.x},${point.y}`).join(' ')}`;
    svg.append(
      s(
        'g',
        { class: 'transition' },
        s('path', { d, 'marker-end': 'url(#arrow)' }),
        s(
          'text',
          { x: edge.labelX, y: edge.labelY + 3, 'text-anchor': 'middle', class: 'edge-label' },
          edge.label,
        ),
      ),
    );
  }
  return svg;
}

/** Scrolls a chart wider than its pane so that the innermost active state is in the middle. */
export function scrollToActive(pane: HTMLElement): void {
  const scroller = pane.querySelector<HTMLElement>('.chart-scroll');
  const active = [...pane.querySelectorAll<SVGGElement>('[data-active]')].at(-1);
  if (!scroller || !active || scroller.scrollWidth <= scroller.clientWidth) return;
  const box = active.getBoundingClientRect();
  const view = scroller.getBoundingClientRect();
  scroller.scrollLeft += box.left + box.width / 2 - (view.left + view.width / 2);
}
