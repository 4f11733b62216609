import { createRuntime, type ImageBlock, type Tool, type ToolOutput, toolResultText } from '@troupe/core';
import { isImageBlock } from '@troupe/core/internal';
import { scriptedModel } from '@troupe/core/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createHttpTransport, createMcpHub, type McpHub } from '../src/index.js';
import { createNodeMcpHub } from '../src/node/index.js';
import { EVERYTHING, nodeServer, startEverythingHttp } from './servers.js';
import { findTool, toolContext } from './tool-calls.js';

// Real servers start as processes: seconds each on a busy machine.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

// The real @modelcontextprotocol/server-everything, over stdio and over Streamable HTTP.
const textOf = (output: ToolOutput) => toolResultText(output);

describe('server-everything over stdio', () => {
  let hub: McpHub;
  let tools: Tool[];

  beforeAll(async () => {
    process.env.ANTHROPIC_API_KEY ??= 'sk-ant-test-not-a-real-key';
    hub = createNodeMcpHub({
      servers: [
        nodeServer('everything', EVERYTHING, ['stdio'], {
          env: { GREETING: 'hello from config' },
          // The user's word: get-tiny-image only reads (its readOnlyHint alone would not do).
          toolAccess: { echo: 'write', 'get-tiny-image': 'read' },
        }),
      ],
      maxResultChars: 2_000,
    });
    tools = await hub.tools();
  });
  afterAll(() => hub.close());

  it('names every tool mcp__everything__<tool> with a valid name and the server schema', () => {
    expect(tools.length).toBeGreaterThan(5);
    for (const tool of tools) expect(tool.name).toMatch(/^mcp__everything__[a-zA-Z0-9_-]{1,47}$/);
    expect(findTool(tools, 'mcp__everything__get-sum').inputJsonSchema).toMatchObject({
      type: 'object',
      required: ['a', 'b'],
    });
  });

  it('calls a tool and maps text content', async () => {
    const sum = findTool(tools, 'mcp__everything__get-sum');
    expect(textOf(await sum.execute({ a: 2, b: 40 }, toolContext()))).toMatch(/42/);
  });

  it('annotations give access classes (readOnlyHint never read); a per-tool override wins', () => {
    expect(findTool(tools, 'mcp__everything__get-sum').access).toBe('write'); // readOnlyHint: true, the server's word only
    expect(findTool(tools, 'mcp__everything__gzip-file-as-resource').access).toBe('execute'); // openWorldHint
    expect(findTool(tools, 'mcp__everything__toggle-simulated-logging').access).toBe('write');
    expect(findTool(tools, 'mcp__everything__echo').access).toBe('write'); // toolAccess override
  });

  it('the server gets a safe environment plus its configured env, never troupe credentials', async () => {
    const output = textOf(await findTool(tools, 'mcp__everything__get-env').execute({}, toolContext()));
    expect(output).toContain('hello from config');
    expect(output).toContain('"PATH"');
    expect(output).not.toContain('ANTHROPIC_API_KEY');
    expect(output).not.toContain(process.env.ANTHROPIC_API_KEY);
  });

  it('maps resource links into text and images into image blocks', async () => {
    const links = textOf(
      await findTool(tools, 'mcp__everything__get-resource-links').execute({ count: 2 }, toolContext()),
    );
    expect(links).toMatch(/\[resource link: .+ <[a-z]+:\/\/.+>/);
    const output = await findTool(tools, 'mcp__everything__get-tiny-image').execute({}, toolContext());
    const images = (Array.isArray(output) ? output : []).filter(isImageBlock);
    expect(images).toHaveLength(1);
    expect(images[0]!.source.media_type).toBe('image/png');
    expect(Buffer.from(images[0]!.source.data, 'base64').subarray(1, 4).toString()).toBe('PNG');
  });

  it('a sub-agent that calls an image tool shows the image to its model in the tool result', async () => {
    const seen: ImageBlock[] = [];
    const model = scriptedModel((request) => {
      if (request.messages.length === 1)
        return {
          content: [{ type: 'tool_use', id: 'c1', name: 'mcp__everything__get-tiny-image', input: {} }],
        };
      const last = request.messages.at(-1)!;
      for (const block of typeof last.content === 'string' ? [] : last.content)
        if (block.type === 'tool_result' && Array.isArray(block.content))
          seen.push(...block.content.filter(isImageBlock));
      return { content: [{ type: 'text', text: 'a tiny image' }] };
    });
    const runtime = createRuntime({
      model,
      tools,
      agents: [
        { name: 'looker', description: 'd', systemPrompt: 'p', tools: ['mcp__everything__get-tiny-image'] },
      ],
    });
    const result = await runtime.spawn({ agent: 'looker', prompt: 'look' }).result;
    expect(result.status).toBe('completed');
    expect(seen).toHaveLength(1);
    expect(seen[0]!.source.media_type).toBe('image/png');
    await runtime.shutdown();
  });

  it('cuts an oversized result with a note', async () => {
    const output = await findTool(tools, 'mcp__everything__echo').execute(
      { message: 'y'.repeat(5_000) },
      toolContext(),
    );
    const text = textOf(output);
    expect(text).toMatch(/\[Output truncated: [\d,]+ of [\d,]+ characters cut\.\]$/);
    expect(text.length).toBeLessThan(2_200);
  });
});

describe('server-everything over Streamable HTTP', () => {
  let server: Awaited<ReturnType<typeof startEverythingHttp>>;
  let hub: McpHub;

  beforeAll(async () => {
    server = await startEverythingHttp();
    // The browser-safe entry: HTTP transport only.
    hub = createMcpHub({
      servers: [
        {
          name: 'remote',
          source: 'test',
          config: { type: 'http', url: server.url, headers: { 'X-Test': 'troupe' } },
        },
      ],
      createTransport: createHttpTransport,
    });
  });
  afterAll(async () => {
    await hub.close();
    await server.stop();
  });

  it('lists and calls tools', async () => {
    const tools = await hub.tools();
    expect(hub.status()[0]).toMatchObject({ name: 'remote', type: 'http', state: 'ready' });
    const echo = findTool(tools, 'mcp__remote__echo');
    expect(textOf(await echo.execute({ message: 'over http' }, toolContext()))).toContain('over http');
  });

  it('a stdio server in the browser-safe hub fails with a message pointing at the Node entry', async () => {
    const browserHub = createMcpHub({
      servers: [nodeServer('local', EVERYTHING, ['stdio'])],
      createTransport: createHttpTransport,
    });
    expect(await browserHub.tools()).toEqual([]);
    expect(browserHub.status()[0]!.error).toMatch(/stdio needs Node .*@troupe\/mcp\/node/);
    await browserHub.close();
  });
});
