/** A style function: wraps text in ANSI codes, or returns it unchanged when colours are off. */
type Style = (text: string) => string;

/** The styles the CLI uses. All are the identity when `enabled` is false. */
export interface Colors {
  readonly enabled: boolean;
  bold: Style;
  dim: Style;
  red: Style;
  green: Style;
  yellow: Style;
  blue: Style;
  magenta: Style;
  cyan: Style;
  gray: Style;
  /** The style for an agent's `color` field (blue, cyan, green, ...); cyan when unset or unknown. */
  named(color: string | undefined): Style;
}

const CODES = {
  bold: [1, 22],
  dim: [2, 22],
  red: [31, 39],
  green: [32, 39],
  yellow: [33, 39],
  blue: [34, 39],
  magenta: [35, 39],
  cyan: [36, 39],
  gray: [90, 39],
} as const;

type StyleName = keyof typeof CODES;

/** Styles that emit ANSI codes only when `enabled`. */
export function createColors(enabled: boolean): Colors {
  const make = (name: StyleName): Style => {
    if (!enabled) return (text) => text;
    const [open, close] = CODES[name];
    return (text) => `\x1b[${open}m${text}\x1b[${close}m`;
  };
  const styles = Object.fromEntries(
    (Object.keys(CODES) as StyleName[]).map((name) => [name, make(name)]),
  ) as Record<StyleName, Style>;
  const named = (color: string | undefined): Style => {
    const key = color?.toLowerCase();
    if (key === 'purple') return styles.magenta;
    if (key === 'orange') return styles.yellow;
    if (key === 'pink') return styles.magenta;
    return key && key in CODES && key !== 'bold' && key !== 'dim' ? styles[key as StyleName] : styles.cyan;
  };
  return { enabled, ...styles, named };
}

/**
 * Whether to colour a stream: only a terminal, and never when NO_COLOR is set (any value) or
 * TERM is `dumb`.
 */
export function colorsFor(
  stream: { isTTY?: boolean },
  env: Readonly<Record<string, string | undefined>>,
): Colors {
  const enabled = stream.isTTY === true && env.NO_COLOR === undefined && env.TERM !== 'dumb';
  return createColors(enabled);
}
