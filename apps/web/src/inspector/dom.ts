/** Attributes and children of {@link h}: strings become text nodes; `undefined`/`false` are skipped. */
type Child = Node | string | undefined | false | null;

/** Creates an element: `h('div', { class: 'x', 'data-key': 'y' }, child, ...)`. `on*` props add listeners. */
export function h<TTag extends keyof HTMLElementTagNameMap>(
  tag: TTag,
  props: Record<string, string | number | boolean | undefined | ((event: Event) => void)> = {},
  ...children: Child[]
): HTMLElementTagNameMap[TTag] {
  const element = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined || value === false) continue;
    if (typeof value === 'function') element.addEventListener(key.slice(2).toLowerCase(), value);
    else if (value === true) element.setAttribute(key, '');
    else element.setAttribute(key, String(value));
  }
  for (const child of children)
    if (child !== undefined && child !== false && child !== null) element.append(child);
  return element;
}

const SVG = 'http://www.w3.org/2000/svg';

/** Creates an SVG element with attributes. */
export function s(
  tag: string,
  attributes: Record<string, string | number> = {},
  ...children: (Node | string)[]
): SVGElement {
  const element = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, String(value));
  for (const child of children) element.append(child);
  return element;
}

/** JSON for people: indented, long strings kept whole. */
export function pretty(value: unknown): string {
  return value === undefined ? 'undefined' : JSON.stringify(value, null, 2);
}

/** A one-line preview of a value, at most `width` characters. */
export function preview(value: unknown, width = 80): string {
  const text = value === undefined ? 'undefined' : JSON.stringify(value);
  return text.length > width ? `${text.slice(0, width - 1)}…` : text;
}
