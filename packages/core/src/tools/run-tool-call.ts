import * as v from 'valibot';
import type { ToolResultBlock, ToolUseBlock } from '../model/types.js';
import { capToolOutput } from './cap-tool-output.js';
import type { ToolContext } from './define-tool.js';
import type { ToolRegistry } from './tool-registry.js';

/** An error tool result for the model. */
export function errorResult(toolUseId: string, message: string): ToolResultBlock {
  return { type: 'tool_result', tool_use_id: toolUseId, content: message, is_error: true };
}

/**
 * Checks a tool call against the agent's registry and the tool's input schema. Returns the parsed
 * input, or an error result for the model: a call outside the registry or with bad input is
 * answered, never executed.
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
  const parsed = v.safeParse(tool.input, call.input);
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
 * Runs one already-checked tool call. A tool that throws becomes an error result with its
 * message; an abort becomes an error result saying so. Output beyond
 * `MAX_STORED_TOOL_OUTPUT_CHARS` is cut, with a note.
 */
export async function executeToolCall(
  registry: ToolRegistry,
  call: ToolUseBlock,
  input: unknown,
  context: ToolContext,
): Promise<ToolResultBlock> {
  const tool = registry.get(call.name);
  if (!tool) return errorResult(call.id, `Error: there is no tool named "${call.name}".`);
  try {
    const output = await tool.execute(input, context);
    // A result is journaled and sent back to the model: whatever the tool returned, keep it bounded.
    return capToolOutput({ type: 'tool_result', tool_use_id: call.id, content: output });
  } catch (error) {
    if (context.signal.aborted) return errorResult(call.id, `Error: tool "${call.name}" was cancelled.`);
    const message = error instanceof Error ? error.message : String(error);
    return errorResult(call.id, `Error: tool "${call.name}" failed: ${message}`);
  }
}
