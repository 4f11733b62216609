import dagre from '@dagrejs/dagre';
import { type AnyStateNode, createMachine } from 'xstate';
import { type ChartTransition, transitionsOf } from './transitions.js';

/** A state node placed on the chart. `x`, `y` are its top-left corner, in px. */
export interface ChartNode {
  /** The state node's id, e.g. `subagent.running.thinking`. */
  id: string;
  /** Path below the machine, as in a state value: `running.thinking` (the root's is ``). */
  path: string;
  label: string;
  parent?: string;
  x: number;
  y: number;
  width: number;
  height: number;
  /** Holds child states (drawn as a box around them). */
  compound: boolean;
  final: boolean;
  initial: boolean;
  /**
   * Transitions that stay in this state (no target, or re-entering it), written inside its box,
   * one a line, below the state's name: `tool.finished [isNextCall]`, `↻ model.responded [...]`.
   */
  rows: ChartRow[];
}

/** A line written inside a state's box: transitions that do not leave the state. */
export interface ChartRow {
  text: string;
  /** The transitions it stands for (several in a compact chart), to highlight the one taken. */
  transitions: ChartTransition[];
}

/** A line of an edge's label and the transitions it stands for (same text, e.g. two guarded `always`). */
export interface ChartEdgeLine {
  text: string;
  transitions: ChartTransition[];
}

/**
 * Transitions between two sibling states placed on the chart: `points` from source to target, in
 * px. A transition from or to a state inside a compound state is drawn from or to the border of
 * the compound state that is the sibling, its label naming the inner state (`grace › model.failed`).
 */
export interface ChartEdge {
  id: string;
  /** Ids of the sibling states the edge joins. */
  source: string;
  target: string;
  /** The label's lines, one per transition: the event type, `[guard]` when guarded. */
  lines: ChartEdgeLine[];
  /** The lines joined by a newline. */
  label: string;
  points: { x: number; y: number }[];
  /** The label's box: centre and size. */
  labelX: number;
  labelY: number;
  labelWidth: number;
  labelHeight: number;
}

/** A machine's statechart, laid out. */
export interface Chart {
  machineId: string;
  width: number;
  height: number;
  /** `TB`: top to bottom; `LR`: left to right. */
  direction: ChartDirection;
  nodes: ChartNode[];
  edges: ChartEdge[];
}

/** Which way a chart flows. */
export type ChartDirection = 'TB' | 'LR';

/** Options of {@link layoutChart}. */
export interface LayoutOptions {
  /** Default `TB`. */
  direction?: ChartDirection;
  /**
   * `full` (the default) writes each transition as `event [guard]`, naming the inner state a
   * transition leaves a compound state from; `compact` writes the event alone, once per label,
   * for a chart small enough to read when fitted (the view shows the full text on hover).
   */
  labels?: 'full' | 'compact';
}

/** Sizes the chart view draws text at; the layout reserves room for them. */
export const CHART_TEXT = {
  /** A state's name. */
  state: 13,
  /** Transition labels and rows. */
  edge: 11,
  /** Line height of labels and rows. */
  line: 15,
} as const;

/** Generous width of one character (px per px of font size), so labels never outgrow their box. */
const CHAR = 0.62;
const PAD = 10;
const TITLE = 26;

const textWidth = (text: string, size: number) => Math.ceil(text.length * size * CHAR);

interface Placed {
  node: ChartNode;
  children: AnyStateNode[];
  /** Size of the laid-out children of a compound state. */
  inner: { width: number; height: number };
}

/**
 * Lays out the statechart of a machine from its own definition (the JSON config Stately's
 * `@xstate.actor` event carries). Each compound state is laid out on its own by dagre, then
 * placed as one box among its siblings, so every compound state is drawn with its children
 * inside. Transitions between siblings are edges whose labels dagre places as nodes (labels never
 * overlap a state or another label); transitions that stay in a state are written inside it.
 * Throws when the definition is not JSON or not a machine config.
 */
export function layoutChart(definition: string | object, options: LayoutOptions = {}): Chart {
  const config = typeof definition === 'string' ? (JSON.parse(definition) as object) : definition;
  const machine = createMachine(config as never);
  const direction = options.direction ?? 'TB';
  const compact = options.labels === 'compact';
  const transitions = transitionsOf(machine.root);
  const nodes: ChartNode[] = [];
  const edges: ChartEdge[] = [];
  const placed = new Map<string, Placed>();

  const pathOf = (state: AnyStateNode) => state.path.join('.');
  // The child of `level` on the way down to `state` (or undefined when `state` is not below it).
  const childOn = (level: AnyStateNode, state: AnyStateNode): AnyStateNode | undefined => {
    let at: AnyStateNode | undefined = state;
    while (at && at.parent !== level) at = at.parent;
    return at;
  };
  const isAncestor = (a: AnyStateNode, b: AnyStateNode) => {
    for (let at = b.parent; at; at = at.parent) if (at === a) return true;
    return false;
  };

  const rowsOf = (state: AnyStateNode): ChartRow[] => {
    const rows: ChartRow[] = [];
    for (const transition of transitions) {
      const stays =
        transition.source === state &&
        (transition.targets.length === 0 ||
          transition.targets.every((target) => target === state || isAncestor(state, target)));
      if (!stays) continue;
      const text = `${transition.targets.length ? '↻ ' : ''}${compact ? transition.event : transition.text}`;
      const same = rows.find((row) => row.text === text);
      if (same) same.transitions.push(transition);
      else rows.push({ text, transitions: [transition] });
    }
    return rows;
  };

  /** Lays out the children of `level`; returns their bounding size. Positions are relative. */
  const layoutLevel = (level: AnyStateNode): { width: number; height: number } => {
    const children = Object.values(level.states) as AnyStateNode[];
    const graph = new dagre.graphlib.Graph({ multigraph: true });
    graph.setGraph({ rankdir: direction, nodesep: 28, ranksep: 36, edgesep: 14, marginx: 0, marginy: 0 });
    graph.setDefaultEdgeLabel(() => ({}));
    for (const child of children) {
      const rows = rowsOf(child);
      const compound = Object.keys(child.states).length > 0;
      const inner = compound ? layoutLevel(child) : { width: 0, height: 0 };
      const rowsWidth = Math.max(0, ...rows.map((row) => textWidth(row.text, CHART_TEXT.edge)));
      const titleWidth = textWidth(child.key, CHART_TEXT.state);
      const head = (compound ? TITLE : 30) + rows.length * CHART_TEXT.line;
      const width = Math.max(84, titleWidth + 2 * PAD, rowsWidth + 2 * PAD, inner.width + 2 * PAD);
      const height = compound ? head + inner.height + PAD : head + (rows.length ? 6 : 0);
      const node: ChartNode = {
        id: child.id,
        path: pathOf(child),
        label: child.key,
        ...(child.parent && child.parent !== machine.root ? { parent: child.parent.id } : {}),
        x: 0,
        y: 0,
        width,
        height,
        compound,
        final: child.type === 'final',
        initial: level.initial?.target?.[0] === child,
        rows,
      };
      placed.set(child.id, {
        node,
        children: compound ? (Object.values(child.states) as AnyStateNode[]) : [],
        inner,
      });
      graph.setNode(child.id, { width, height });
    }
    // Edges between siblings: every transition whose source and target lie under two different children.
    const joined = new Map<string, ChartEdgeLine[]>();
    for (const transition of transitions) {
      for (const target of transition.targets) {
        const from = childOn(level, transition.source);
        const to = childOn(level, target);
        if (!from || !to || from === to) continue;
        const lifted = from !== transition.source && !compact ? `${transition.source.key} › ` : '';
        const key = `${from.id}\u0000${to.id}`;
        const lines = joined.get(key) ?? [];
        const text = `${lifted}${compact ? transition.event : transition.text}`;
        const same = lines.find((line) => line.text === text);
        if (!same) lines.push({ text, transitions: [transition] });
        else if (!same.transitions.includes(transition)) same.transitions.push(transition);
        joined.set(key, lines);
      }
    }
    const local: { key: string; from: string; to: string; lines: ChartEdgeLine[] }[] = [];
    for (const [key, lines] of joined) {
      const [from, to] = key.split('\u0000') as [string, string];
      const width = Math.max(...lines.map((line) => textWidth(line.text, CHART_TEXT.edge))) + 8;
      graph.setEdge(from, to, { width, height: lines.length * CHART_TEXT.line + 4, labelpos: 'c' }, key);
      local.push({ key, from, to, lines });
    }
    dagre.layout(graph);
    for (const child of children) {
      const at = graph.node(child.id) as { x: number; y: number; width: number; height: number };
      const entry = placed.get(child.id)!;
      entry.node.x = at.x - at.width / 2;
      entry.node.y = at.y - at.height / 2;
    }
    for (const edge of local) {
      const at = graph.edge({ v: edge.from, w: edge.to, name: edge.key }) as {
        points: { x: number; y: number }[];
        x: number;
        y: number;
        width: number;
        height: number;
      };
      edges.push({
        id: `${edges.length}`,
        source: edge.from,
        target: edge.to,
        lines: edge.lines,
        label: edge.lines.map((line) => line.text).join('\n'),
        points: at.points.map((point) => ({ ...point })),
        labelX: at.x,
        labelY: at.y,
        labelWidth: at.width,
        labelHeight: at.height,
      });
      levelOf.set(edges.at(-1)!, level);
    }
    const size = graph.graph() as { width?: number; height?: number };
    return { width: size.width ?? 0, height: size.height ?? 0 };
  };
  const levelOf = new Map<ChartEdge, AnyStateNode>();
  const size = layoutLevel(machine.root);

  // Positions so far are relative to their level: shift each level by its compound state's box.
  const offsets = new Map<AnyStateNode, { x: number; y: number }>([[machine.root, { x: PAD, y: PAD }]]);
  const place = (level: AnyStateNode) => {
    const offset = offsets.get(level)!;
    for (const child of Object.values(level.states) as AnyStateNode[]) {
      const { node, children, inner } = placed.get(child.id)!;
      node.x += offset.x;
      node.y += offset.y;
      nodes.push(node);
      if (children.length) {
        offsets.set(child, {
          x: node.x + (node.width - inner.width) / 2,
          y: node.y + TITLE + node.rows.length * CHART_TEXT.line,
        });
        place(child);
      }
    }
  };
  place(machine.root);
  for (const [edge, level] of levelOf) {
    const offset = offsets.get(level)!;
    edge.points = edge.points.map((point) => ({ x: point.x + offset.x, y: point.y + offset.y }));
    edge.labelX += offset.x;
    edge.labelY += offset.y;
  }
  return {
    machineId: machine.id,
    width: Math.ceil(size.width + 2 * PAD),
    height: Math.ceil(size.height + 2 * PAD),
    direction,
    nodes,
    edges,
  };
}

/** The scale at which a chart fits a box of `width` × `height` px (never above 1). */
export function fitScale(chart: Pick<Chart, 'width' | 'height'>, width: number, height: number): number {
  return Math.min(1, width / Math.max(1, chart.width), height / Math.max(1, chart.height));
}

/** The fitted scale from which a chart with full labels is kept: its text stays legible. */
const LEGIBLE_SCALE = 0.8;

/**
 * Lays a machine out both ways (top to bottom, left to right) and keeps the one that fits a box
 * of `width` × `height` px at the larger scale, so its text is the most legible once fitted; with
 * full labels when they stay legible, else with compact labels (event names only).
 */
export function layoutChartToFit(definition: string | object, width: number, height: number): Chart {
  const best = (labels: 'full' | 'compact') => {
    const tall = layoutChart(definition, { direction: 'TB', labels });
    const wide = layoutChart(definition, { direction: 'LR', labels });
    return fitScale(wide, width, height) > fitScale(tall, width, height) * 1.05 ? wide : tall;
  };
  const full = best('full');
  if (fitScale(full, width, height) >= LEGIBLE_SCALE) return full;
  const compact = best('compact');
  return fitScale(compact, width, height) > fitScale(full, width, height) ? compact : full;
}
