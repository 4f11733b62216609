import { toJsonSchema } from '@valibot/to-json-schema';
import type * as v from 'valibot';
import { ToolError } from '../errors.js';
import type { JsonSchema, ToolResultContent } from '../model/types.js';

/** How much a tool can change the world. `read` runs directly; `write` and `execute` need approval. */
export type ToolAccess = 'read' | 'write' | 'execute';

/** What a tool's `execute` receives besides its input. */
export interface ToolContext {
  /** Aborted when the task is cancelled or times out; long-running tools must stop promptly. */
  signal: AbortSignal;
  taskId: string;
  /** Name of the agent running the tool. */
  agent: string;
  /** The `tool_use` id of this call. */
  toolUseId: string;
  sessionKey?: string;
}

/** What a tool returns: a string, or text and image blocks (images are shown to the model). */
export type ToolOutput = string | ToolResultContent[];

/** A tool the runtime can offer to agents. Create with {@link defineTool}. */
export interface Tool<TInput = unknown> {
  readonly name: string;
  readonly description: string;
  readonly access: ToolAccess;
  readonly input: v.GenericSchema<unknown, TInput>;
  /** The input schema as JSON Schema, as sent to the model. */
  readonly inputJsonSchema: JsonSchema;
  /**
   * Runs one call with input already validated against `input`. A thrown error becomes an error
   * result the model sees (the task goes on); `context.signal` aborts on cancel or timeout.
   */
  execute(input: TInput, context: ToolContext): Promise<ToolOutput> | ToolOutput;
}

/** Options of {@link defineTool}. */
export interface ToolConfig<TSchema extends v.GenericSchema> {
  name: string;
  description: string;
  access: ToolAccess;
  input: TSchema;
  /** Runs one call with the validated input (see {@link Tool.execute}). */
  execute(input: v.InferOutput<TSchema>, context: ToolContext): Promise<ToolOutput> | ToolOutput;
  /** Override the generated JSON Schema (for schemas valibot cannot convert). */
  inputJsonSchema?: JsonSchema;
}

const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const ACCESS = new Set<ToolAccess>(['read', 'write', 'execute']);

/**
 * Defines a tool. The valibot `input` schema validates every call before `execute` runs and is
 * converted to JSON Schema for the model. Throws `ToolError` (TOOL_DEFINITION_INVALID) for a name
 * the Anthropic API would refuse, an unknown access class, or a schema that cannot be converted.
 */
export function defineTool<TSchema extends v.GenericSchema>(
  config: ToolConfig<TSchema>,
): Tool<v.InferOutput<TSchema>> {
  const { name, description, access, input, execute } = config;
  if (typeof name !== 'string' || !TOOL_NAME.test(name)) {
    throw new ToolError(
      'TOOL_DEFINITION_INVALID',
      String(name),
      `Tool name ${JSON.stringify(name)} is invalid: use 1-64 letters, digits, '_' or '-'.`,
    );
  }
  if (!ACCESS.has(access)) {
    throw new ToolError(
      'TOOL_DEFINITION_INVALID',
      name,
      `Tool "${name}" has access ${JSON.stringify(access)}; expected 'read', 'write' or 'execute'.`,
    );
  }
  if (typeof execute !== 'function') {
    throw new ToolError('TOOL_DEFINITION_INVALID', name, `Tool "${name}" has no execute function.`);
  }
  let inputJsonSchema = config.inputJsonSchema;
  if (!inputJsonSchema) {
    try {
      const { $schema: _ignored, ...schema } = toJsonSchema(input, { errorMode: 'throw' }) as JsonSchema;
      inputJsonSchema = schema;
    } catch (cause) {
      throw new ToolError(
        'TOOL_DEFINITION_INVALID',
        name,
        `Tool "${name}": its input schema cannot be converted to JSON Schema (${(cause as Error).message}). Pass inputJsonSchema explicitly.`,
        { cause },
      );
    }
  }
  return Object.freeze({
    name,
    description,
    access,
    input: input as v.GenericSchema<unknown, v.InferOutput<TSchema>>,
    inputJsonSchema,
    execute,
  });
}
