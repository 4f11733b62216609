/** Where the JSON of a final answer was found, or why none was. */
export type ExtractedJson =
  | { found: true; value: unknown; from: 'raw' | 'fence' | 'object' }
  | { found: false; problem: string };

/** Characters handed to `JSON.parse` while looking for an object, as a multiple of the text's length. */
const PARSE_BUDGET_FACTOR = 4;

const FENCE = /```[ \t]*([A-Za-z0-9_-]*)[ \t]*\n([\s\S]*?)\n?[ \t]*```/g;

/**
 * Finds the JSON in a model's final answer, trying in order: the whole text, each fenced block
 * (```json first, then unlabelled ones), then each balanced `{...}` object in the prose.
 * Never throws; says what it saw when it finds nothing usable.
 */
export function extractJson(text: string): ExtractedJson {
  const trimmed = text.trim();
  if (trimmed === '') return { found: false, problem: 'the final answer is empty' };
  const whole = tryParse(trimmed);
  if (whole.ok) return { found: true, value: whole.value, from: 'raw' };

  const fences = [...trimmed.matchAll(FENCE)].map((match) => ({
    language: match[1]!.toLowerCase(),
    body: match[2]!,
  }));
  const jsonFences = fences.filter((fence) => fence.language === 'json' || fence.language === 'jsonc');
  for (const fence of [...jsonFences, ...fences.filter((f) => f.language === '')]) {
    const parsed = tryParse(fence.body.trim());
    if (parsed.ok) return { found: true, value: parsed.value, from: 'fence' };
  }

  for (const candidate of balancedObjects(trimmed)) {
    const parsed = tryParse(candidate);
    if (parsed.ok) return { found: true, value: parsed.value, from: 'object' };
  }

  if (jsonFences.length > 0) {
    const parsed = tryParse(jsonFences[0]!.body.trim());
    return {
      found: false,
      problem: `the \`\`\`json block is not valid JSON (${parsed.ok ? 'empty' : parsed.error})`,
    };
  }
  if (trimmed.includes('{')) {
    return {
      found: false,
      problem: `the text contains '{' but no complete, valid JSON object (${whole.ok ? '' : whole.error})`,
    };
  }
  return { found: false, problem: 'the final answer contains no JSON' };
}

function tryParse(text: string): { ok: true; value: unknown } | { ok: false; error: string } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return { ok: false, error: (error as Error).message };
  }
}

/**
 * Each balanced `{...}` span (strings inside objects respected), outer spans first, in order of
 * their opening brace. One pass pairs every brace (linear time); the spans handed to `JSON.parse`
 * are then bounded to {@link PARSE_BUDGET_FACTOR} times the text, so text a model wrote (60,000
 * nested braces that fail to parse at the very end) cannot make extraction quadratic.
 */
function* balancedObjects(text: string): Generator<string> {
  const spans: { start: number; end: number }[] = [];
  const open: number[] = [];
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const char = text[index];
    if (inString) {
      if (char === '\\') index++;
      else if (char === '"') inString = false;
    } else if (char === '"' && open.length > 0) inString = true;
    else if (char === '{') open.push(index);
    else if (char === '}' && open.length > 0) spans.push({ start: open.pop()!, end: index });
  }
  spans.sort((a, b) => a.start - b.start);
  let budget = PARSE_BUDGET_FACTOR * text.length;
  for (const span of spans) {
    budget -= span.end - span.start + 1;
    if (budget < 0) return;
    yield text.slice(span.start, span.end + 1);
  }
}
