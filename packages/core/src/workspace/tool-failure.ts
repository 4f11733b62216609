import { ToolError } from '../errors.js';

/** A `ToolError` (TOOL_FAILED) for a tool call that cannot be done, with the message the model sees. */
export function toolFailure(
  toolName: string,
  message: string,
  details: Record<string, unknown> = {},
): ToolError {
  return new ToolError('TOOL_FAILED', toolName, message, { details });
}
