type Child = Node | string | false | null | undefined;

/**
 * Creates an element: `h('button', { class: 'x', onclick: fn }, 'Label')`. Attributes starting
 * with `on` become listeners, `dataset` entries go to `data-*`, the rest are set as attributes.
 */
export function h<TTag extends keyof HTMLElementTagNameMap>(
  tag: TTag,
  attributes: Record<string, unknown> = {},
  ...children: Child[]
): HTMLElementTagNameMap[TTag] {
  const element = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue;
    if (key.startsWith('on') && typeof value === 'function') {
      element.addEventListener(key.slice(2), value as EventListener);
    } else if (key === 'dataset') Object.assign(element.dataset, value);
    else if (key === 'value') (element as HTMLInputElement).value = String(value);
    else element.setAttribute(key, value === true ? '' : String(value));
  }
  for (const child of children) if (child) element.append(child);
  return element;
}
