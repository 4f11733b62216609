import { createServer, type Server as HttpServer } from 'node:http';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { type Tool, toolResultText } from '@troupe/core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createHttpTransport, createMcpHub, type McpHub } from '../src/index.js';
import { failureOf, findTool, toolContext } from './tool-calls.js';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

// A Streamable HTTP server on the SDK's own server transport, answering in JSON or over SSE.
const MB = 1024 * 1024;
const object = { type: 'object' as const, properties: { mb: { type: 'number' } } };
const text = (value: string) => ({ content: [{ type: 'text' as const, text: value }] });

async function startServer(json: boolean): Promise<{ url: string; http: HttpServer }> {
  const http = createServer(async (request, response) => {
    const server = new Server(
      { name: 'big-http', version: '1.0.0' },
      { capabilities: { tools: {}, logging: {} } },
    );
    server.setRequestHandler(ListToolsRequestSchema, () => ({
      tools: ['ok', 'huge', 'huge-notification', 'http-error'].map((name) => ({ name, inputSchema: object })),
    }));
    server.setRequestHandler(CallToolRequestSchema, async (call, extra) => {
      const size = Math.round(Number(call.params.arguments?.mb ?? 1) * MB);
      if (call.params.name === 'huge') return text('x'.repeat(size));
      if (call.params.name === 'huge-notification') {
        await extra.sendNotification({
          method: 'notifications/message',
          params: { level: 'info', data: 'n'.repeat(size) },
        });
        return text('ok after a huge notification');
      }
      return text('ok');
    });
    // Stateless (no session id generator): a server and a transport per request.
    const transport = new StreamableHTTPServerTransport({ enableJsonResponse: json });
    response.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body: unknown = chunks.length > 0 ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined;
    if ((body as { params?: { name?: string } } | undefined)?.params?.name === 'http-error') {
      response.writeHead(500, { 'content-type': 'text/plain' });
      response.end('e'.repeat(60 * MB));
      return;
    }
    await transport.handleRequest(request, response, body);
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const address = http.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { url: `http://127.0.0.1:${port}/mcp`, http };
}

describe.each([
  ['JSON', true],
  ['SSE', false],
])('a Streamable HTTP server answering in %s', (_, json) => {
  let http: HttpServer;
  let hub: McpHub;
  let tools: Tool[];
  const find = (name: string) => findTool(tools, name);

  beforeAll(async () => {
    const started = await startServer(json);
    http = started.http;
    hub = createMcpHub({
      servers: [{ name: 'web', source: 'test', config: { type: 'http', url: started.url, headers: {} } }],
      createTransport: createHttpTransport,
    });
    tools = await hub.tools();
  });
  afterAll(async () => {
    await hub.close();
    http.closeAllConnections();
    await new Promise((resolve) => http.close(resolve));
  });

  it('a 60 MB result is an error naming server, tool and size; the next call works', async () => {
    const error = await failureOf(find('mcp__web__huge').execute({ mb: 60 }, toolContext()));
    expect(error?.message).toMatch(
      /^MCP server "web" sent a 60 MB message in answer to "huge", over the 10 MB limit; the result was dropped\.$/,
    );
    expect(toolResultText(await find('mcp__web__ok').execute({}, toolContext()))).toBe('ok');
  });

  it('a 12 MB notification is dropped; the call still gets its answer', async () => {
    const output = await find('mcp__web__huge-notification').execute({ mb: 12 }, toolContext());
    expect(toolResultText(output)).toBe('ok after a huge notification');
  });

  it('a 60 MB error page is cut to its first 4 KB in the error', async () => {
    const error = await failureOf(find('mcp__web__http-error').execute({}, toolContext()));
    expect(error?.message).toMatch(
      /^MCP server "web" failed while calling "http-error": .*Error POSTing to endpoint: e{4096}… \(60 MB in all\)/,
    );
    expect(error!.message.length).toBeLessThan(4_500);
  });
});
