/** Model aliases a definition may use; the runtime maps each to a configured model id. */
const MODEL_ALIASES = ['haiku', 'sonnet', 'opus', 'small', 'plan'] as const;

/** What a definition's `model` value means, and why it was rewritten (if it was). */
export interface NormalisedModel {
  /** `inherit`, an alias, or an id passed on as written. */
  model: string;
  /** Set when the value was mapped or looks wrong: what happened, for a warning. */
  note?: { kind: 'model-display-name' | 'model-unrecognised'; text: string };
}

const ALIASES = new Set<string>(MODEL_ALIASES);
const FAMILY = /\b(haiku|sonnet|opus)\b/i;

/**
 * Reads a definition's `model` value. Decision (see the README): `inherit` and the aliases match
 * in any case; a display name such as `Claude Sonnet 4.5` or `Claude Sonnet 4.5 (copilot)` maps
 * to its family alias (`sonnet`), so the runtime's configured id is used, with a note; anything
 * else is passed through as a model id, with a note when it cannot be one (a single word that is
 * no alias, like `fable`, or text with spaces).
 */
export function normaliseModel(value: string): NormalisedModel {
  const trimmed = value.trim();
  const lower = trimmed.toLowerCase();
  if (lower === 'inherit' || ALIASES.has(lower)) return { model: lower };
  if (/\s/.test(trimmed)) {
    const family = FAMILY.exec(trimmed)?.[1]?.toLowerCase();
    if (family && /^claude\b/i.test(trimmed)) {
      return {
        model: family,
        note: {
          kind: 'model-display-name',
          text: `model ${JSON.stringify(trimmed)} is a display name; using the '${family}' alias. Write 'model: ${family}' or a full model id.`,
        },
      };
    }
    return {
      model: trimmed,
      note: {
        kind: 'model-unrecognised',
        text: `model ${JSON.stringify(trimmed)} is not an alias (${[...ALIASES].join(', ')}, inherit) and has spaces, so it is probably not a model id; passing it to the model as is.`,
      },
    };
  }
  if (/^[a-z]+$/i.test(trimmed)) {
    return {
      model: trimmed,
      note: {
        kind: 'model-unrecognised',
        text: `model ${JSON.stringify(trimmed)} is not an alias (${[...ALIASES].join(', ')}, inherit); passing it to the model as an id.`,
      },
    };
  }
  return { model: trimmed };
}
