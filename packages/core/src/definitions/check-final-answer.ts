import type { OutputCheck } from '../machines/subagent-events.js';
import type { JsonSchema } from '../model/types.js';
import { compileJsonSchema, type JsonSchemaValidator } from './compile-json-schema.js';
import { extractJson } from './extract-json.js';

const compiled = new WeakMap<object, JsonSchemaValidator>();
const SCHEMA_PREVIEW_LIMIT = 1_500;

/**
 * Checks a final answer against an agent's `outputSchema`: finds the JSON in it (raw JSON, a
 * ```json block, or the first `{...}` object) and validates it. On failure, `message` is written
 * for the model: what was wrong, each schema violation with its path, and how to answer instead,
 * so that one more turn can fix it. Compiled schemas are cached per schema object.
 * Throws {@link DefinitionError} only if `outputSchema` itself is invalid (definitions are
 * checked when loaded, so that means a definition bypassed validation).
 */
export function checkFinalAnswer(text: string, outputSchema: JsonSchema): OutputCheck {
  let validate = compiled.get(outputSchema);
  if (!validate) {
    validate = compileJsonSchema(outputSchema, { field: 'outputSchema' });
    compiled.set(outputSchema, validate);
  }
  const extracted = extractJson(text);
  if (!extracted.found) {
    return {
      ok: false,
      message:
        `Your final answer must be JSON matching the required output schema, but ${extracted.problem}. ` +
        `Reply with only the JSON (optionally in a \`\`\`json block), no other text. The schema:\n${schemaPreview(outputSchema)}`,
    };
  }
  const result = validate(extracted.value);
  if (result.ok) return { ok: true, value: extracted.value };
  const listed = result.errors.slice(0, 20).map((error) => `- ${error}`);
  if (result.errors.length > 20) listed.push(`- ... and ${result.errors.length - 20} more`);
  return {
    ok: false,
    message:
      `Your final answer's JSON does not match the required output schema:\n${listed.join('\n')}\n` +
      `Fix these and reply with the corrected JSON only. The schema:\n${schemaPreview(outputSchema)}`,
  };
}

function schemaPreview(schema: JsonSchema): string {
  const text = JSON.stringify(schema);
  return text.length > SCHEMA_PREVIEW_LIMIT ? `${text.slice(0, SCHEMA_PREVIEW_LIMIT)}…` : text;
}
