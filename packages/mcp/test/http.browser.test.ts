import { createRuntime, toolResultText } from '@troupe/core';
import { isImageBlock } from '@troupe/core/internal';
import { scriptedModel } from '@troupe/core/testing';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createHttpTransport, createMcpHub, type McpHub } from '../src/index.js';

// In Chromium: the browser-safe entry of @troupe/mcp reaches the real server-everything over
// Streamable HTTP (started in Node by test/browser-setup.ts).
describe('MCP over Streamable HTTP in a browser', () => {
  let hub: McpHub;

  beforeAll(() => {
    hub = createMcpHub({
      servers: [
        {
          name: 'everything',
          source: 'test',
          config: { type: 'http', url: inject('mcpEverythingUrl'), headers: {} },
        },
      ],
      createTransport: createHttpTransport,
    });
  });
  afterAll(() => hub.close());

  it('runs in a page, not in Node', () => {
    expect('document' in globalThis && 'navigator' in globalThis).toBe(true);
    expect(
      typeof (globalThis as { process?: { versions?: { node?: string } } }).process?.versions?.node,
    ).toBe('undefined');
  });

  it('a sub-agent calls the server tools: text and an image come back to its model', async () => {
    const tools = await hub.tools();
    expect(tools.map((tool) => tool.name)).toEqual(
      expect.arrayContaining(['mcp__everything__echo', 'mcp__everything__get-tiny-image']),
    );
    const answers: string[] = [];
    let images = 0;
    const model = scriptedModel((request) => {
      if (request.messages.length === 1)
        return {
          content: [
            {
              type: 'tool_use',
              id: 'c1',
              name: 'mcp__everything__echo',
              input: { message: 'from Chromium' },
            },
            { type: 'tool_use', id: 'c2', name: 'mcp__everything__get-tiny-image', input: {} },
          ],
        };
      const last = request.messages.at(-1)!;
      for (const block of typeof last.content === 'string' ? [] : last.content) {
        if (block.type !== 'tool_result') continue;
        answers.push(toolResultText(block.content));
        if (Array.isArray(block.content)) images += block.content.filter(isImageBlock).length;
      }
      return { content: [{ type: 'text', text: 'done' }] };
    });
    const runtime = createRuntime({
      model,
      tools,
      agents: [{ name: 'a', description: 'd', systemPrompt: 'p', tools: ['mcp__everything'] }],
      approval: 'auto',
    });
    const result = await runtime.spawn({ agent: 'a', prompt: 'echo and look' }).result;
    expect(result.status).toBe('completed');
    expect(answers[0]).toMatch(/from Chromium/);
    expect(images).toBe(1);
    expect(hub.status()[0]).toMatchObject({ state: 'ready', type: 'http' });
    await runtime.shutdown();
  });
});
