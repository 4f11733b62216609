import { h } from './dom.js';

/**
 * An agent's label, `[name]` as the CLI prints it, with a swatch before it, in the agent's `color`
 * (`data-color`, lower case). `styles.css` colours Claude Code's eight names (`red`, `blue`,
 * `green`, `yellow`, `purple`, `orange`, `pink`, `cyan`), `gray` and the CLI's ANSI names for them
 * (`magenta`, `teal`, `grey`) in shades that keep 4.5:1 on the app's backgrounds; any other value
 * leaves the label in the page's colours. The colour is decoration: the name says which agent it is.
 */
export function agentLabel(agent: string, color: string | undefined, text = `[${agent}]`): HTMLElement {
  const key = color?.trim().toLowerCase();
  return h(
    'span',
    { class: 'agent-label', dataset: key ? { color: key } : {} },
    key && h('span', { class: 'agent-swatch', 'aria-hidden': 'true' }),
    text,
  );
}
