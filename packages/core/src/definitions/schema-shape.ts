import { resolvePointer } from './json-pointer.js';

/** Deepest nesting of objects and arrays accepted in a schema (real schemas stay under ~20). */
export const MAX_SCHEMA_DEPTH = 100;
/** Most nodes a schema may hold once YAML aliases are expanded. */
export const MAX_SCHEMA_NODES = 20_000;
/** Deepest nesting accepted in a value validated against a schema (a task input, a final answer). */
export const MAX_VALUE_DEPTH = 256;

// Keywords that apply a subschema to the same value; a loop through them never ends.
const IN_PLACE_LISTS = ['allOf', 'anyOf', 'oneOf'] as const;
const IN_PLACE_SINGLE = ['not', 'if', 'then', 'else'] as const;

/**
 * What makes a schema unsafe to hand to a recursive validator, checked without recursion: nesting
 * deeper than {@link MAX_SCHEMA_DEPTH}, more than {@link MAX_SCHEMA_NODES} nodes once shared
 * objects (YAML aliases) are counted each time they appear, an object that contains itself, and a
 * `$ref` loop that never descends into the value (`{"$ref": "#"}`). Empty when the schema is safe.
 */
export function schemaShapeProblems(schema: unknown): string[] {
  const problem = valueShapeProblem(schema, { maxDepth: MAX_SCHEMA_DEPTH, maxNodes: MAX_SCHEMA_NODES });
  if (problem) return [problem];
  const loop = inPlaceLoop(schema);
  return loop ? [loop] : [];
}

function children(node: object): unknown[] {
  return Array.isArray(node) ? node : Object.values(node);
}

/**
 * What makes a parsed value (YAML front matter, a schema) unsafe to walk recursively, found without
 * recursion: nesting deeper than `maxDepth`, more than `maxNodes` objects and arrays once shared
 * ones (YAML aliases) are counted each time they appear, or an object containing itself. Shared
 * subtrees are measured once, so a billion-laughs value is refused in time linear in its text.
 */
export function valueShapeProblem(
  root: unknown,
  limits: { maxDepth: number; maxNodes: number },
): string | undefined {
  const { maxDepth, maxNodes } = limits;
  const sizes = new Map<object, { depth: number; nodes: number }>();
  const onPath = new Set<object>();
  const stack: { node: object; entered: boolean }[] = [];
  if (root !== null && typeof root === 'object') stack.push({ node: root, entered: false });
  while (stack.length > 0) {
    const frame = stack[stack.length - 1]!;
    if (!frame.entered) {
      if (sizes.has(frame.node)) {
        stack.pop();
        continue;
      }
      frame.entered = true;
      onPath.add(frame.node);
      if (onPath.size > maxDepth) return `it is nested more than ${maxDepth} levels deep`;
      for (const child of children(frame.node)) {
        if (child === null || typeof child !== 'object') continue;
        if (onPath.has(child)) return 'it contains itself (a YAML alias loop)';
        if (!sizes.has(child)) stack.push({ node: child, entered: false });
      }
      continue;
    }
    stack.pop();
    onPath.delete(frame.node);
    let depth = 0;
    let nodes = 1;
    for (const child of children(frame.node)) {
      if (child === null || typeof child !== 'object') continue;
      const size = sizes.get(child)!;
      depth = Math.max(depth, size.depth);
      nodes += size.nodes;
    }
    if (depth + 1 > maxDepth) return `it is nested more than ${maxDepth} levels deep`;
    if (nodes > maxNodes)
      return `it expands to more than ${maxNodes} objects and lists (YAML aliases count each time they are used)`;
    sizes.set(frame.node, { depth: depth + 1, nodes });
  }
  return undefined;
}

/** The subschemas a schema applies to the same value, with where each comes from. */
function inPlaceTargets(root: unknown, node: Record<string, unknown>): { target: unknown; via: string }[] {
  const targets: { target: unknown; via: string }[] = [];
  if (typeof node.$ref === 'string' && node.$ref.startsWith('#')) {
    const ref = node.$ref;
    const anchor = !ref.startsWith('#/') && ref !== '#' ? findAnchor(root, ref.slice(1)) : undefined;
    const target = anchor ?? resolvePointer(root, ref).value;
    targets.push({ target, via: `$ref ${JSON.stringify(ref)}` });
  }
  for (const key of IN_PLACE_LISTS) {
    const list = node[key];
    if (Array.isArray(list)) for (const item of list) targets.push({ target: item, via: key });
  }
  for (const key of IN_PLACE_SINGLE) if (key in node) targets.push({ target: node[key], via: key });
  const dependent = node.dependentSchemas;
  if (dependent && typeof dependent === 'object')
    for (const item of Object.values(dependent)) targets.push({ target: item, via: 'dependentSchemas' });
  return targets;
}

function findAnchor(root: unknown, anchor: string): unknown {
  const stack: unknown[] = [root];
  const seen = new Set<unknown>();
  while (stack.length > 0) {
    const node = stack.pop();
    if (node === null || typeof node !== 'object' || seen.has(node)) continue;
    seen.add(node);
    if ((node as Record<string, unknown>).$anchor === anchor) return node;
    stack.push(...children(node));
  }
  return undefined;
}

/** A loop of in-place applicators (`$ref`, `allOf`, ...) that never reaches a keyword of the value. */
function inPlaceLoop(root: unknown): string | undefined {
  const schemas: object[] = [];
  const seen = new Set<unknown>();
  const walk: unknown[] = [root];
  while (walk.length > 0) {
    const node = walk.pop();
    if (node === null || typeof node !== 'object' || seen.has(node)) continue;
    seen.add(node);
    if (!Array.isArray(node)) schemas.push(node);
    walk.push(...children(node));
  }
  const state = new Map<object, 'open' | 'done'>();
  for (const start of schemas) {
    if (state.has(start)) continue;
    const stack: { node: object; targets: { target: unknown; via: string }[]; next: number }[] = [
      { node: start, targets: inPlaceTargets(root, start as Record<string, unknown>), next: 0 },
    ];
    state.set(start, 'open');
    while (stack.length > 0) {
      const frame = stack[stack.length - 1]!;
      const edge = frame.targets[frame.next++];
      if (!edge) {
        state.set(frame.node, 'done');
        stack.pop();
        continue;
      }
      const target = edge.target;
      if (target === null || typeof target !== 'object' || Array.isArray(target)) continue;
      const seenState = state.get(target);
      if (seenState === 'open')
        return `it refers to itself through ${edge.via} without descending into the value, so validating anything would never end`;
      if (seenState === 'done') continue;
      state.set(target, 'open');
      stack.push({ node: target, targets: inPlaceTargets(root, target as Record<string, unknown>), next: 0 });
    }
  }
  return undefined;
}

/** Whether a value nests arrays and objects deeper than `max` levels (checked without recursion). */
export function nestedDeeperThan(value: unknown, max: number): boolean {
  const stack: { node: unknown; depth: number }[] = [{ node: value, depth: 0 }];
  // A shared object (built in code, not parsed) is walked again only when reached deeper.
  const reached = new Map<object, number>();
  while (stack.length > 0) {
    const { node, depth } = stack.pop()!;
    if (node === null || typeof node !== 'object') continue;
    if (depth + 1 > max) return true;
    if ((reached.get(node) ?? -1) >= depth) continue;
    reached.set(node, depth);
    for (const child of children(node))
      if (child !== null && typeof child === 'object') stack.push({ node: child, depth: depth + 1 });
  }
  return false;
}
