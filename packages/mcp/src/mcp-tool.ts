import { defineTool, type JsonSchema, type Tool, type ToolAccess, toolResultText } from '@troupe/core';
import { compileJsonSchema, mcpToolName } from '@troupe/core/internal';
import * as v from 'valibot';
import type { McpServerConnection, McpToolInfo } from './server-connection.js';
import { DEFAULT_MAX_RESULT_CHARS, toContentBlocks } from './tool-result.js';

const DESCRIPTION_MAX_LENGTH = 2_048;

/** A tool of an MCP server as troupe offers it. */
export interface McpTool extends Tool<Record<string, unknown>> {
  /** The configured server name. */
  readonly server: string;
  /** The tool's own name on its server. */
  readonly mcpName: string;
}

/**
 * Wraps one tool of an MCP server as a troupe tool named `mcp__<server>__<tool>`: the server's
 * JSON Schema is what the model sees and what every call is validated against before anything is
 * sent; the result becomes text and image blocks (text cut to `maxResultChars`). A result the server flags as an
 * error, and every failure of the call, becomes an error naming the server and the tool. Throws
 * (from `compileJsonSchema`) when the server's schema is not a usable JSON Schema.
 */
export function createMcpTool(
  connection: McpServerConnection,
  info: McpToolInfo,
  access: ToolAccess,
  maxResultChars = DEFAULT_MAX_RESULT_CHARS,
): McpTool {
  const { $schema: _ignored, ...schema } = (info.inputSchema ?? { type: 'object' }) as JsonSchema;
  const validate = compileJsonSchema(schema, {
    field: `inputSchema of MCP tool "${info.name}" (server "${connection.name}")`,
  });
  const input = v.custom<Record<string, unknown>>(
    (value) => validate(value).ok,
    (issue) => {
      const check = validate(issue.input);
      return check.ok ? 'invalid input' : check.errors.join('; ');
    },
  );
  const description = (info.description ?? info.annotations?.title ?? info.title ?? info.name).slice(
    0,
    DESCRIPTION_MAX_LENGTH,
  );
  const tool = defineTool({
    name: mcpToolName(connection.name, info.name),
    description,
    access,
    input,
    inputJsonSchema: schema,
    execute: async (arguments_, context) => {
      const result = await connection.callTool(info.name, arguments_, context.signal);
      const blocks = toContentBlocks(result, maxResultChars);
      if (result.isError) {
        const text = toolResultText(blocks);
        throw new Error(`MCP server "${connection.name}" reported an error from "${info.name}": ${text}`);
      }
      return blocks;
    },
  });
  return Object.freeze({ ...tool, server: connection.name, mcpName: info.name }) as McpTool;
}
