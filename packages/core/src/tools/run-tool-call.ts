import * as v from 'valibot';
import type { ToolResultBlock, ToolUseBlock } from '../model/types.js';
import { describeThrown, toPlainJson } from '../persistence/plain-json.js';
import { capToolOutput, MAX_STORED_TOOL_OUTPUT_CHARS } from './cap-tool-output.js';
import type { ToolContext } from './define-tool.js';
import type { ToolRegistry } from './tool-registry.js';

/** An error tool result for the model. */
export function errorResult(toolUseId: string, message: string): ToolResultBlock {
  return { type: 'tool_result', tool_use_id: toolUseId, content: message, is_error: true };
}

/**
 * Checks a tool call against the agent's registry and the tool's input schema. Returns the parsed
 * input, or an error result for the model: a call outside the registry, with bad input, or whose
 * schema throws is answered, never executed.
 */
export function checkToolCall(
  registry: ToolRegistry,
  call: ToolUseBlock,
): { ok: true; input: unknown } | { ok: false; result: ToolResultBlock } {
  const tool = registry.get(call.name);
  if (!tool) {
    const available = registry.names.length ? registry.names.join(', ') : 'none';
    return {
      ok: false,
      result: errorResult(
        call.id,
        `Error: there is no tool named "${call.name}" available to you. Available tools: ${available}.`,
      ),
    };
  }
  let parsed: ReturnType<typeof v.safeParse<typeof tool.input>>;
  try {
    parsed = v.safeParse(tool.input, call.input);
  } catch (error) {
    // A schema's own check (`v.check`, `v.custom`, a transform) is the tool author's code.
    return {
      ok: false,
      result: errorResult(
        call.id,
        `Error: the input of tool "${call.name}" could not be checked: its input schema failed: ${describeThrown(error)}`,
      ),
    };
  }
  if (!parsed.success) {
    const issues = parsed.issues
      .map((issue) => {
        const path = v.getDotPath(issue);
        return path ? `${path}: ${issue.message}` : issue.message;
      })
      .join('; ');
    return {
      ok: false,
      result: errorResult(call.id, `Error: invalid input for tool "${call.name}": ${issues}.`),
    };
  }
  return { ok: true, input: parsed.output };
}

/**
 * Runs one already-checked tool call. A tool that throws (anything: an Error, a string, an object
 * with no prototype, a proxy whose traps throw) becomes an error result naming the tool; an abort
 * becomes an error result saying so. The output is made plain JSON ({@link resultOf}) and cut
 * beyond `MAX_STORED_TOOL_OUTPUT_CHARS`, with a note. Never rejects.
 */
export async function executeToolCall(
  registry: ToolRegistry,
  call: ToolUseBlock,
  input: unknown,
  context: ToolContext,
): Promise<ToolResultBlock> {
  const tool = registry.get(call.name);
  if (!tool) return errorResult(call.id, `Error: there is no tool named "${call.name}".`);
  let output: unknown;
  try {
    output = await tool.execute(input, context);
  } catch (error) {
    if (context.signal.aborted) return errorResult(call.id, `Error: tool "${call.name}" was cancelled.`);
    return errorResult(call.id, `Error: tool "${call.name}" failed: ${describeThrown(error)}`);
  }
  return resultOf(call, output);
}

/** An object result is written as JSON text up to this size (then cut like any text). */
const OBJECT_RESULT_BOUNDS = { maxDepth: 64, maxChars: 4 * MAX_STORED_TOOL_OUTPUT_CHARS };

/**
 * The result a tool's output becomes, journaled and sent back to the model: text and image blocks
 * rebuilt from their known fields, an object as its JSON text, anything else as a string, all cut
 * to the stored limit. An output that cannot be read or made JSON (a getter that throws, a cycle,
 * a BigInt) is an error result naming the tool and where.
 */
export function resultOf(call: ToolUseBlock, output: unknown): ToolResultBlock {
  const refuse = (what: string, reason: string) =>
    errorResult(call.id, `Error: tool "${call.name}" returned a result that ${what}: ${reason}.`);
  try {
    let content = output;
    if (typeof output === 'object' && output !== null && !Array.isArray(output)) {
      const plain = toPlainJson(output, 'result', OBJECT_RESULT_BOUNDS);
      if (!plain.ok)
        return refuse(plain.kind === 'unreadable' ? 'cannot be read' : 'cannot be stored', plain.reason);
      content = JSON.stringify(plain.value);
    }
    return capToolOutput({ type: 'tool_result', tool_use_id: call.id, content: content as string });
  } catch (error) {
    return refuse('cannot be read', describeThrown(error));
  }
}
