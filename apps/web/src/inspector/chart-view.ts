import type { TakenTransition } from '@troupe/inspect';
import { CHART_TEXT, type Chart, type ChartTransition } from '@troupe/inspect/chart';
import { h, s } from './dom.js';

/** A small chart is drawn at most this much larger than its natural size when fitted. */
const MAX_FIT_SCALE = 1.25;

/** A view box: the part of the chart shown, in chart px. */
interface View {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The chart pane's drawing: show a chart at a step, keep the user's pan and zoom per chart. */
export interface ChartView {
  element: HTMLElement;
  /** Draws `chart` (kept when it is the one shown) with `active` state paths and `taken` transitions lit. */
  show(chart: Chart, active: ReadonlySet<string>, taken: readonly TakenTransition[]): void;
}

const isTaken = (transition: ChartTransition, taken: readonly TakenTransition[]) =>
  taken.some(
    (step) =>
      step.source === transition.source.id &&
      (step.eventType || 'always') === transition.event &&
      step.targets.join() === transition.targets.map((target) => target.id).join(),
  );

/**
 * The statechart of the selected actor as SVG: compound states as boxes around their children,
 * final states with a double border, transitions between states as labelled arrows, transitions
 * that stay in a state written inside it. The chart is fitted to the pane when first shown; the
 * wheel and the buttons zoom, dragging pans, "Fit" fits again. The active states (`data-active`)
 * and the transitions taken at the step (`data-taken`) are highlighted.
 */
export function createChartView(): ChartView {
  const svg = s('svg', {
    class: 'chart',
    role: 'img',
    preserveAspectRatio: 'xMidYMid meet',
  }) as SVGSVGElement;
  const views = new Map<Chart, View>();
  let chart: Chart | undefined;
  const items: { element: Element; transitions: ChartTransition[] }[] = [];
  const nodes: { element: Element; path: string }[] = [];

  const apply = () => {
    const view = chart && views.get(chart);
    if (view) svg.setAttribute('viewBox', `${view.x} ${view.y} ${view.width} ${view.height}`);
  };
  // Fitted: the whole chart in the pane, centred, never enlarged beyond MAX_FIT_SCALE.
  const fit = () => {
    if (!chart) return;
    const box = svg.getBoundingClientRect();
    const scale =
      box.width && box.height
        ? Math.min(MAX_FIT_SCALE, box.width / chart.width, box.height / chart.height)
        : 1;
    const width = box.width ? box.width / scale : chart.width;
    const height = box.height ? box.height / scale : chart.height;
    views.set(chart, { x: (chart.width - width) / 2, y: (chart.height - height) / 2, width, height });
    apply();
  };
  const zoom = (factor: number, cx?: number, cy?: number) => {
    const view = chart && views.get(chart);
    if (!view) return;
    const x = cx ?? view.x + view.width / 2;
    const y = cy ?? view.y + view.height / 2;
    const width = Math.min(chart!.width * 4, Math.max(40, view.width * factor));
    const ratio = width / view.width;
    views.set(chart!, {
      x: x - (x - view.x) * ratio,
      y: y - (y - view.y) * ratio,
      width,
      height: view.height * ratio,
    });
    apply();
  };
  // Chart px per screen px, for panning and zooming at the pointer.
  const toChart = (clientX: number, clientY: number) => {
    const matrix = svg.getScreenCTM();
    if (!matrix) return undefined;
    const point = new DOMPoint(clientX, clientY).matrixTransform(matrix.inverse());
    return { x: point.x, y: point.y };
  };
  svg.addEventListener(
    'wheel',
    (event) => {
      const at = toChart(event.clientX, event.clientY);
      if (!at) return;
      event.preventDefault();
      zoom(event.deltaY > 0 ? 1.15 : 1 / 1.15, at.x, at.y);
    },
    { passive: false },
  );
  let drag: { x: number; y: number } | undefined;
  svg.addEventListener('pointerdown', (event) => {
    drag = toChart(event.clientX, event.clientY);
    if (drag) svg.setPointerCapture(event.pointerId);
  });
  svg.addEventListener('pointermove', (event) => {
    const view = chart && views.get(chart);
    const at = drag && toChart(event.clientX, event.clientY);
    if (!view || !drag || !at) return;
    views.set(chart!, { ...view, x: view.x - (at.x - drag.x), y: view.y - (at.y - drag.y) });
    apply();
  });
  const endDrag = () => {
    drag = undefined;
  };
  svg.addEventListener('pointerup', endDrag);
  svg.addEventListener('pointercancel', endDrag);

  const tool = (label: string, title: string, action: () => void) =>
    h('button', { type: 'button', title, 'aria-label': title, onclick: action }, label);
  const element = h(
    'div',
    { class: 'chart-frame' },
    svg,
    h(
      'div',
      { class: 'chart-tools' },
      tool('+', 'Zoom in', () => zoom(1 / 1.25)),
      tool('−', 'Zoom out', () => zoom(1.25)),
      tool('Fit', 'Fit the chart to the pane', fit),
    ),
  );

  const draw = (next: Chart) => {
    chart = next;
    items.length = 0;
    nodes.length = 0;
    svg.replaceChildren(
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
    svg.dataset.machine = next.machineId;
    svg.setAttribute('aria-label', `Statechart of ${next.machineId}`);
    const ordered = [...next.nodes].sort((a, b) => a.path.split('.').length - b.path.split('.').length);
    for (const node of ordered) {
      const group = s('g', {
        class: `state${node.compound ? ' compound' : ''}${node.final ? ' final' : ''}`,
        'data-path': node.path,
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
      if (node.initial) group.append(s('circle', { cx: node.x - 7, cy: node.y + 7, r: 4, class: 'initial' }));
      const top = node.y + (node.compound ? 17 : 20);
      group.append(
        s(
          'text',
          node.compound
            ? { x: node.x + 9, y: top, class: 'label' }
            : { x: node.x + node.width / 2, y: top, 'text-anchor': 'middle', class: 'label' },
          node.label,
        ),
      );
      node.rows.forEach((row, index) => {
        const text = s(
          'text',
          { x: node.x + 9, y: top + (index + 1) * CHART_TEXT.line, class: 'row' },
          row.text,
        );
        // The full transitions a compact row stands for, on hover.
        const full = row.transitions.map((transition) => transition.text).join('\n');
        group.append(s('g', {}, s('title', {}, full), text));
        items.push({ element: text, transitions: row.transitions });
      });
      svg.append(group);
      nodes.push({ element: group, path: node.path });
    }
    for (const edge of next.edges) {
      const [first, ...rest] = edge.points;
      if (!first) continue;
      const d = `M${first.x},${first.y} ${rest.map((point) => `L${point.x},${point.y}`).join(' ')}`;
      const label = s('text', {
        x: edge.labelX - edge.labelWidth / 2 + 4,
        y: edge.labelY - edge.labelHeight / 2 + 13,
        class: 'edge-label',
      });
      edge.lines.forEach((line, index) => {
        label.append(
          s(
            'tspan',
            { x: edge.labelX - edge.labelWidth / 2 + 4, dy: index ? CHART_TEXT.line : 0 },
            line.text,
          ),
        );
      });
      const group = s(
        'g',
        { class: 'transition', 'data-source': edge.source, 'data-target': edge.target },
        s('path', { d, 'marker-end': 'url(#arrow)' }),
        s(
          'title',
          {},
          [
            ...new Set(edge.lines.flatMap((line) => line.transitions.map((transition) => transition.text))),
          ].join('\n'),
        ),
        label,
      );
      svg.append(group);
      items.push({ element: group, transitions: edge.lines.flatMap((line) => line.transitions) });
    }
    if (!views.has(next)) fit();
    else apply();
  };

  return {
    element,
    show(next, active, taken) {
      if (next !== chart) draw(next);
      for (const node of nodes) {
        const on = active.has(node.path);
        node.element.classList.toggle('active', on);
        if (on) node.element.setAttribute('data-active', 'true');
        else node.element.removeAttribute('data-active');
      }
      for (const item of items) {
        const on = item.transitions.some((transition) => isTaken(transition, taken));
        item.element.classList.toggle('taken', on);
        if (on) item.element.setAttribute('data-taken', 'true');
        else item.element.removeAttribute('data-taken');
      }
    },
  };
}
