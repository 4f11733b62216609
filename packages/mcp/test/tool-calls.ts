// What the MCP tests need to call a hub's tools: a tool context, a tool by name, the error of a
// call, hubs closed after each test, and a model that calls one tool.
import { type Tool, type ToolContext, type ToolResultBlock, toolResultText } from '@troupe/core';
import { scriptedModel } from '@troupe/core/testing';
import { afterEach } from 'vitest';
import type { McpHub, McpHubOptions } from '../src/index.js';
import { createNodeMcpHub } from '../src/node/index.js';

/** A tool context for direct `execute` calls (task `t1`, agent `a`). */
export function toolContext(signal: AbortSignal = new AbortController().signal): ToolContext {
  return { signal, taskId: 't1', agent: 'a', toolUseId: 'u1' };
}

/** The tool named `name` among `tools`; throws naming the tools there are when it is missing. */
export function findTool(tools: readonly Tool[], name: string): Tool {
  const tool = tools.find((candidate) => candidate.name === name);
  if (!tool) throw new Error(`no ${name} among ${tools.map((t) => t.name).join(', ')}`);
  return tool;
}

/** The error a call (a promise or a value) fails with, or undefined when it succeeds. */
export function failureOf(call: unknown): Promise<Error | undefined> {
  return Promise.resolve(call).then(
    () => undefined,
    (error: Error) => error,
  );
}

/**
 * Node MCP hubs closed after each test: call at the top of a test file (it registers the
 * `afterEach`), then create hubs with the function it returns.
 */
export function useNodeHubs(): (options?: Omit<McpHubOptions, 'createTransport'>) => McpHub {
  const hubs: McpHub[] = [];
  afterEach(async () => {
    await Promise.all(hubs.splice(0).map((hub) => hub.close()));
  });
  return (options) => {
    const hub = createNodeMcpHub(options);
    hubs.push(hub);
    return hub;
  };
}

/**
 * A scripted model that calls `name` with `input` once, then answers the tool result's text
 * (prefixed `ERROR ` when the call failed). The tool call's id names the task.
 */
export function callOnce(name: string, input: unknown) {
  return scriptedModel((request) => {
    const last = request.messages.at(-1);
    const result = Array.isArray(last?.content)
      ? (last.content.find((block) => block.type === 'tool_result') as ToolResultBlock | undefined)
      : undefined;
    if (!result) return { content: [{ type: 'tool_use', id: `call_${request.taskId}`, name, input }] };
    return {
      content: [
        { type: 'text', text: `${result.is_error ? 'ERROR ' : ''}${toolResultText(result.content)}` },
      ],
    };
  });
}
