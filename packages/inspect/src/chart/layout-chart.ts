import dagre from '@dagrejs/dagre';
import { type DirectedGraphNode, toDirectedGraph } from '@xstate/graph';
import { createMachine } from 'xstate';

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
}

/** A transition placed on the chart: `points` from source to target, in px. */
export interface ChartEdge {
  id: string;
  source: string;
  target: string;
  /** The event type, with `[guard]` when guarded. */
  label: string;
  points: { x: number; y: number }[];
  labelX: number;
  labelY: number;
}

/** A machine's statechart, laid out. */
export interface Chart {
  machineId: string;
  width: number;
  height: number;
  nodes: ChartNode[];
  edges: ChartEdge[];
}

const CHAR_WIDTH = 7.2;
const LEAF_HEIGHT = 30;

/**
 * Lays out the statechart of a machine from its own definition (the JSON config Stately's
 * `@xstate.actor` event carries): the states and transitions come from `@xstate/graph`'s
 * `toDirectedGraph`, the positions from dagre (compound graph, top to bottom). Nothing is placed
 * by hand. Transitions from or to a compound state are routed to its first leaf for layout.
 * Throws when the definition is not JSON or not a machine config.
 */
export function layoutChart(definition: string | object): Chart {
  const config = typeof definition === 'string' ? (JSON.parse(definition) as object) : definition;
  const machine = createMachine(config as never);
  const root = toDirectedGraph(machine);
  const graph = new dagre.graphlib.Graph({ compound: true, multigraph: true });
  graph.setGraph({ rankdir: 'TB', nodesep: 24, ranksep: 40, edgesep: 12, marginx: 12, marginy: 12 });
  graph.setDefaultEdgeLabel(() => ({}));
  const info = new Map<string, { node: DirectedGraphNode; parent?: string; path: string }>();
  const leafOf = new Map<string, string>();

  const visit = (node: DirectedGraphNode, parent: string | undefined, path: string) => {
    info.set(node.id, { node, path, ...(parent ? { parent } : {}) });
    const label = node.stateNode.key;
    if (node.children.length) {
      graph.setNode(node.id, { label, paddingTop: 28, paddingLeft: 10, paddingRight: 10, paddingBottom: 10 });
    } else {
      graph.setNode(node.id, {
        label,
        width: Math.max(80, label.length * CHAR_WIDTH + 28),
        height: LEAF_HEIGHT,
      });
    }
    if (parent) graph.setParent(node.id, parent);
    for (const child of node.children)
      visit(child, node.id, path ? `${path}.${child.stateNode.key}` : child.stateNode.key);
  };
  for (const child of root.children) visit(child, undefined, child.stateNode.key);

  const firstLeaf = (id: string): string => {
    const cached = leafOf.get(id);
    if (cached) return cached;
    const node = info.get(id)?.node;
    const initialKey = node?.stateNode.initial?.target?.[0]?.id;
    const next = node?.children.find((child) => child.id === initialKey) ?? node?.children[0];
    const leaf = next ? firstLeaf(next.id) : id;
    leafOf.set(id, leaf);
    return leaf;
  };

  const edges: Omit<ChartEdge, 'points' | 'labelX' | 'labelY'>[] = [];
  const collect = (node: DirectedGraphNode) => {
    for (const edge of node.edges) {
      const source = edge.source.id;
      const target = edge.target.id;
      if (!info.has(source) || !info.has(target)) continue;
      const guard = edge.transition.guard;
      const guardName = typeof guard === 'string' ? guard : (guard as { type?: string } | undefined)?.type;
      const label = `${edge.label.text}${guardName ? ` [${guardName}]` : ''}`;
      const id = `${edges.length}`;
      edges.push({ id, source, target, label });
      const from = firstLeaf(source);
      const to = firstLeaf(target);
      if (from === to) continue;
      graph.setEdge(from, to, { label, width: label.length * 6 + 8, height: 14, labelpos: 'c' }, id);
    }
    for (const child of node.children) collect(child);
  };
  collect(root);
  dagre.layout(graph);

  const nodes: ChartNode[] = [];
  for (const [id, { node, parent, path }] of info) {
    const placed = graph.node(id) as { x: number; y: number; width: number; height: number };
    const initialOfParent = parent
      ? info.get(parent)?.node.stateNode.initial?.target?.[0]?.id === id
      : machine.root.initial?.target?.[0]?.id === id;
    nodes.push({
      id,
      path,
      label: node.stateNode.key,
      ...(parent ? { parent } : {}),
      x: placed.x - placed.width / 2,
      y: placed.y - placed.height / 2,
      width: placed.width,
      height: placed.height,
      compound: node.children.length > 0,
      final: node.stateNode.type === 'final',
      initial: initialOfParent,
    });
  }
  const placedEdges: ChartEdge[] = edges.map((edge) => {
    const from = firstLeaf(edge.source);
    const to = firstLeaf(edge.target);
    const placed =
      from === to
        ? undefined
        : (graph.edge({ v: from, w: to, name: edge.id }) as
            | { points: { x: number; y: number }[]; x?: number; y?: number }
            | undefined);
    const points =
      placed?.points ?? selfLoop(graph.node(from) as { x: number; y: number; width: number; height: number });
    const middle = points[Math.floor(points.length / 2)]!;
    return { ...edge, points, labelX: placed?.x ?? middle.x, labelY: placed?.y ?? middle.y };
  });
  const size = graph.graph() as { width?: number; height?: number };
  return {
    machineId: machine.id,
    width: size.width ?? 0,
    height: size.height ?? 0,
    nodes,
    edges: placedEdges,
  };
}

function selfLoop(node: { x: number; y: number; width: number; height: number }) {
  const right = node.x + node.width / 2;
  return [
    { x: right, y: node.y - 6 },
    { x: right + 24, y: node.y - 14 },
    { x: right + 24, y: node.y + 14 },
    { x: right, y: node.y + 6 },
  ];
}
