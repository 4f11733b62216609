import { h } from './dom.js';

/**
 * The colours an agent file's `color` may name: Claude Code's eight (`red`, `blue`, `green`,
 * `yellow`, `purple`, `orange`, `pink`, `cyan`) and `gray`. Each has a text shade that reads on the
 * app's backgrounds (at least 4.5:1 against white, #f6f7f9 and the chat's #e8edff: WCAG AA) and a
 * brighter swatch; both are in `styles.css` (`.agent-color-<name>`).
 */
export const AGENT_COLORS = [
  'red',
  'blue',
  'green',
  'yellow',
  'purple',
  'orange',
  'pink',
  'cyan',
  'gray',
] as const;

/** One of {@link AGENT_COLORS}. */
export type AgentColor = (typeof AGENT_COLORS)[number];

/** Other names the CLI accepts for the same colours (its ANSI names). */
const ALIASES: Readonly<Record<string, AgentColor>> = { magenta: 'purple', teal: 'cyan', grey: 'gray' };

const HEX = /^#[0-9a-f]{6}$/i;

/**
 * How an agent's `color` is shown: a named colour (case-insensitive, the CLI's ANSI names too), a
 * `#rrggbb` value (shown as a swatch only: its contrast as text is unknown), or nothing (unset or
 * unknown: the label keeps the page's text colour).
 */
export function agentColorOf(color: string | undefined): { name: AgentColor } | { hex: string } | undefined {
  const key = color?.trim().toLowerCase();
  if (!key) return undefined;
  if ((AGENT_COLORS as readonly string[]).includes(key)) return { name: key as AgentColor };
  const alias = ALIASES[key];
  if (alias) return { name: alias };
  return HEX.test(key) ? { hex: key } : undefined;
}

/**
 * An agent's label, `[name]` as the CLI prints it, in the agent's colour with a swatch before it.
 * The colour is decoration: the name says which agent it is.
 */
export function agentLabel(agent: string, color: string | undefined, text = `[${agent}]`): HTMLElement {
  const shown = agentColorOf(color);
  const swatch =
    shown &&
    h('span', {
      class: 'agent-swatch',
      'aria-hidden': 'true',
      ...('hex' in shown ? { style: `background: ${shown.hex}` } : {}),
    });
  return h(
    'span',
    {
      class: shown && 'name' in shown ? `agent-label agent-color-${shown.name}` : 'agent-label',
      dataset: shown ? { color: 'name' in shown ? shown.name : shown.hex } : {},
    },
    swatch,
    text,
  );
}
