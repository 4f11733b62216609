import { existsSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRuntime, parseAgentFile } from '@troupe/core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { McpHub } from '../src/index.js';
import { createNodeMcpHub } from '../src/node/index.js';
import { FILESYSTEM, nodeServer } from './servers.js';
import { callOnce } from './tool-calls.js';

// Real servers start as processes: seconds each on a busy machine.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

// The real @modelcontextprotocol/server-filesystem, started from node_modules over stdio.
let root: string;
let hub: McpHub;

beforeAll(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'troupe-mcp-fs-')));
  writeFileSync(join(root, 'notes.txt'), 'The launch code is 1234.\n');
  // The user's configuration says read_text_file only reads: that, not the server's hint, lets it skip approval.
  hub = createNodeMcpHub({
    servers: [nodeServer('filesystem', FILESYSTEM, [root], { toolAccess: { read_text_file: 'read' } })],
  });
});

afterAll(async () => {
  await hub.close();
  rmSync(root, { recursive: true, force: true });
});

const agentFile = (tools: string, extra = '') =>
  parseAgentFile(
    `---\nname: reader\ndescription: Reads files\ntools: ${tools}\n${extra}---\nYou read files.`,
    { path: 'reader.md' },
  ).definition;

describe('server-filesystem through the runtime', () => {
  it('maps the configuration and annotations to access classes; readOnlyHint alone never makes a tool read', async () => {
    await hub.tools();
    const tools = Object.fromEntries(hub.status()[0]!.tools.map((tool) => [tool.mcpName, tool.access]));
    expect(tools.read_text_file).toBe('read');
    // The server says readOnlyHint: true; without the user's word it still goes through approvals.
    expect(tools.list_directory).toBe('write');
    // destructiveHint: true → execute; create_directory says destructive false, open-world false → write.
    expect(tools.write_file).toBe('execute');
    expect(tools.create_directory).toBe('write');
    // The hint is kept for display only: `troupe mcp list` says the server claims read-only.
    const hinted = hub.status()[0]!.tools.find((tool) => tool.mcpName === 'list_directory');
    expect(hinted).toMatchObject({ access: 'write', serverSaysReadOnly: true });
    const unhinted = hub.status()[0]!.tools.find((tool) => tool.mcpName === 'write_file');
    expect(unhinted).not.toHaveProperty('serverSaysReadOnly');
  });

  it('a sub-agent whose file lists mcp__filesystem__read_text_file reads a file through the server', async () => {
    const model = callOnce('mcp__filesystem__read_text_file', { path: join(root, 'notes.txt') });
    const runtime = createRuntime({
      model,
      tools: await hub.tools(),
      agents: [agentFile('mcp__filesystem__read_text_file')],
    });
    const result = await runtime.spawn({ agent: 'reader', prompt: 'Read notes.txt' }).result;
    expect(result.status).toBe('completed');
    expect(result.output).toBe('The launch code is 1234.\n');
    expect(model.requests[0]!.tools.map((tool) => tool.name)).toEqual(['mcp__filesystem__read_text_file']);
    expect(model.requests[0]!.tools[0]!.input_schema).toMatchObject({ type: 'object', required: ['path'] });
    await runtime.shutdown();
  });

  it('a write tool the agent is denied is never sent to the server', async () => {
    const target = join(root, 'denied.txt');
    const model = callOnce('mcp__filesystem__write_file', { path: target, content: 'x' });
    const runtime = createRuntime({
      model,
      tools: await hub.tools(),
      agents: [agentFile('mcp__filesystem', 'disallowedTools: mcp__filesystem__write_file\n')],
      approval: 'auto',
    });
    const result = await runtime.spawn({ agent: 'reader', prompt: 'Write' }).result;
    expect(result.output).toMatch(/^ERROR .*no tool named "mcp__filesystem__write_file"/);
    expect(model.requests[0]!.tools.map((tool) => tool.name)).toContain('mcp__filesystem__read_text_file');
    expect(existsSync(target)).toBe(false);
    await runtime.shutdown();
  });

  it('a write tool goes through approvals: denied, it is never sent; approved, it writes', async () => {
    const target = join(root, 'approved.txt');
    const agents = [agentFile('mcp__filesystem__*')];
    const denied = createRuntime({
      model: callOnce('mcp__filesystem__write_file', { path: target, content: 'hello' }),
      tools: await hub.tools(),
      agents,
      approval: 'deny',
    });
    const first = await denied.spawn({ agent: 'reader', prompt: 'Write' }).result;
    expect(first.output).toMatch(/^ERROR/);
    expect(existsSync(target)).toBe(false);
    await denied.shutdown();

    const asked: string[] = [];
    const approved = createRuntime({
      model: callOnce('mcp__filesystem__write_file', { path: target, content: 'hello' }),
      tools: await hub.tools(),
      agents,
    });
    approved.on('approval.requested', (request) => {
      asked.push(`${request.tool}:${request.access}`);
      approved.approve(request.id);
    });
    const second = await approved.spawn({ agent: 'reader', prompt: 'Write' }).result;
    expect(asked).toEqual(['mcp__filesystem__write_file:execute']);
    expect(second.output).toMatch(/Successfully wrote/);
    expect(existsSync(target)).toBe(true);
    await approved.shutdown();
  });

  it('input that fails the server schema is answered with an error naming the field', async () => {
    const model = callOnce('mcp__filesystem__read_text_file', { path: 42 });
    const runtime = createRuntime({
      model,
      tools: await hub.tools(),
      agents: [agentFile('mcp__filesystem')],
    });
    const result = await runtime.spawn({ agent: 'reader', prompt: 'Read' }).result;
    expect(result.output).toMatch(
      /^ERROR .*invalid input for tool "mcp__filesystem__read_text_file": .*path.*string/,
    );
    await runtime.shutdown();
  });
});
