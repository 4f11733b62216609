import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRuntime, type ToolOutput, toolResultText } from '@troupe/core';
import { manualClock, scriptedModel } from '@troupe/core/testing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { McpHub } from '../src/index.js';
import { FAULTY, isAlive, nodeServer } from './servers.js';
import { failureOf, findTool, toolContext, useNodeHubs } from './tool-calls.js';

// Real servers start as processes: seconds each on a busy machine.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

// Faults, with troupe's small fixture server (built on the SDK's Server class).
let dir: string;
const textOf = (output: ToolOutput) => toolResultText(output);

function hubWith(mode = 'ok', extra: Parameters<typeof nodeServer>[3] = {}, clock = manualClock()) {
  const hub = createHub({
    servers: [
      nodeServer('faulty', FAULTY, [mode], {
        env: { CANCEL_LOG: join(dir, 'cancel.log'), COUNT_LOG: join(dir, 'count.log') },
        ...extra,
      }),
    ],
    clock,
  });
  return { hub, clock };
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'troupe-mcp-faults-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});
// Registered after the afterEach above, so that it runs first: hubs close, then their folder goes.
const createHub = useNodeHubs();

describe('a server that crashes mid-call', () => {
  it('gives a clear error naming server and tool, then restarts on the next use after the backoff', async () => {
    const { hub, clock } = hubWith();
    const tools = await hub.tools();
    const error = await failureOf(findTool(tools, 'mcp__faulty__crash').execute({}, toolContext()));
    expect(error?.message).toMatch(/MCP server "faulty" failed while calling "crash": the server exited/);
    expect(hub.status()[0]).toMatchObject({ state: 'failed' });

    // Within the backoff the server is not hammered: the call fails at once, saying when it retries.
    await expect(findTool(tools, 'mcp__faulty__ok').execute({}, toolContext())).rejects.toThrow(
      /MCP server "faulty" is unavailable for "ok" .* restarted on a use in 1 s/,
    );
    clock.advance(1_000);
    expect(textOf(await findTool(tools, 'mcp__faulty__ok').execute({}, toolContext()))).toBe('ok');
    expect(hub.status()[0]).toMatchObject({ state: 'ready' });
  });

  it('never takes down the task: the model gets an error result and the task completes', async () => {
    const { hub } = hubWith();
    const model = scriptedModel((request) =>
      request.messages.length === 1
        ? { content: [{ type: 'tool_use', id: 'c1', name: 'mcp__faulty__crash', input: {} }] }
        : { content: [{ type: 'text', text: JSON.stringify(request.messages.at(-1)!.content) }] },
    );
    const runtime = createRuntime({
      model,
      tools: await hub.tools(),
      agents: [{ name: 'a', description: 'd', systemPrompt: 'p', tools: ['mcp__faulty'] }],
      approval: 'auto',
    });
    const result = await runtime.spawn({ agent: 'a', prompt: 'crash it' }).result;
    expect(result.status).toBe('completed');
    expect(result.output).toMatch(/"is_error":true/);
    expect(result.output).toMatch(/MCP server \\"faulty\\" failed while calling \\"crash\\"/);
    await runtime.shutdown();
  });
});

describe('a server that never starts', () => {
  it('a command that does not exist: no tools, status says why', async () => {
    const hub = createHub({
      servers: [
        {
          name: 'ghost',
          source: 'test',
          config: { type: 'stdio', command: 'troupe-no-such-server', args: [], env: {} },
        },
      ],
    });
    expect(await hub.tools()).toEqual([]);
    expect(hub.status()[0]).toMatchObject({ state: 'failed' });
    expect(hub.status()[0]!.error).toMatch(/failed to start: .*ENOENT.*command not found/);
  });

  it('a server that exits at start: its stderr is in the message; an expected tool answers a clear error', async () => {
    const { hub } = hubWith('exit-at-start');
    const tools = await hub.tools({ expect: ['mcp__faulty__ok'] });
    expect(tools.map((tool) => tool.name)).toEqual(['mcp__faulty__ok']);
    expect(hub.status()[0]!.error).toMatch(/failed to start: .*cannot open its database/);
    await expect(tools[0]!.execute({}, toolContext())).rejects.toThrow(
      /MCP server "faulty" is unavailable, so "mcp__faulty__ok" cannot run: it failed to start: it exited before answering; its last output: faulty-server: cannot open its database/,
    );
  });

  it('a server that never answers initialize: start times out', async () => {
    const { hub } = hubWith('silent', { startTimeoutMs: 300 });
    expect(await hub.tools()).toEqual([]);
    expect(hub.status()[0]!.error).toMatch(/did not answer within 300 ms/);
  });
});

describe('a server that hangs', () => {
  it('a call past the timeout is an error naming server and tool; the next use restarts the server', async () => {
    const { hub, clock } = hubWith('ok', { timeoutMs: 300 });
    const tools = await hub.tools();
    await expect(findTool(tools, 'mcp__faulty__hang').execute({}, toolContext())).rejects.toThrow(
      /MCP server "faulty" failed while calling "hang": it did not answer within 300 ms/,
    );
    clock.advance(1_000);
    expect(textOf(await findTool(tools, 'mcp__faulty__ok').execute({}, toolContext()))).toBe('ok');
  });
});

describe('a server that answers a protocol error', () => {
  it('a JSON-RPC error answer names server and tool; the server is not restarted', async () => {
    const { hub } = hubWith();
    const tools = await hub.tools();
    const pid = await serverPid(hub);
    await expect(findTool(tools, 'mcp__faulty__refuse').execute({}, toolContext())).rejects.toThrow(
      /MCP server "faulty" answered an error while calling "refuse": .*the index is locked/,
    );
    expect(textOf(await findTool(tools, 'mcp__faulty__ok').execute({}, toolContext()))).toBe('ok');
    expect(await serverPid(hub)).toBe(pid);
  });

  it('a result that is not a tool result is an error naming server and tool, never a crash', async () => {
    const { hub } = hubWith();
    const tools = await hub.tools();
    const pid = await serverPid(hub);
    const error = await failureOf(findTool(tools, 'mcp__faulty__malformed').execute({}, toolContext()));
    expect(error?.message).toMatch(
      /^MCP server "faulty" answered an error while calling "malformed": MCP error -32602: Invalid tools\/call result: .*"content"/,
    );
    expect(error?.message).not.toMatch(/\n/);
    expect(textOf(await findTool(tools, 'mcp__faulty__ok').execute({}, toolContext()))).toBe('ok');
    expect(await serverPid(hub)).toBe(pid);
  });

  it('a line on stdout that is not JSON-RPC is skipped; the answer after it arrives', async () => {
    const { hub } = hubWith();
    const tools = await hub.tools();
    const pid = await serverPid(hub);
    expect(textOf(await findTool(tools, 'mcp__faulty__noisy').execute({}, toolContext()))).toBe(
      'ok after noise',
    );
    expect(await serverPid(hub)).toBe(pid);
  });
});

describe('cancel mid-call', () => {
  it('cancelling the task aborts the call and sends notifications/cancelled to the server', async () => {
    const { hub } = hubWith();
    const runtime = createRuntime({
      model: scriptedModel([
        { content: [{ type: 'tool_use', id: 'c1', name: 'mcp__faulty__wait', input: { ms: 30_000 } }] },
      ]),
      tools: await hub.tools(),
      agents: [{ name: 'a', description: 'd', systemPrompt: 'p' }],
      approval: 'auto', // the server's readOnlyHint does not let the call skip approval
    });
    const started = new Promise<void>((resolve) => runtime.on('tool.started', () => resolve()));
    const handle = runtime.spawn({ agent: 'a', prompt: 'wait' });
    await started;
    await new Promise((resolve) => setTimeout(resolve, 100)); // the request reaches the server
    runtime.cancel(handle.id);
    const result = await handle.result;
    expect(result.status).toBe('cancelled');
    await expect
      .poll(() => readFileSync(join(dir, 'cancel.log'), 'utf8'), { timeout: 5_000 })
      .toMatch(/^cancelled \d+/);
    // The server stays up for other tasks.
    expect(textOf(await findTool(await hub.tools(), 'mcp__faulty__ok').execute({}, toolContext()))).toBe(
      'ok',
    );
    await runtime.shutdown();
  });
});

describe('input validation', () => {
  it('a call with bad input is answered with an error and never sent', async () => {
    const { hub } = hubWith();
    const model = scriptedModel((request) =>
      request.messages.length === 1
        ? {
            content: [
              { type: 'tool_use', id: 'c1', name: 'mcp__faulty__count', input: { n: 0 } },
              { type: 'tool_use', id: 'c2', name: 'mcp__faulty__count', input: { n: 'three' } },
              { type: 'tool_use', id: 'c3', name: 'mcp__faulty__count', input: { n: 2 } },
            ],
          }
        : { content: [{ type: 'text', text: JSON.stringify(request.messages.at(-1)!.content) }] },
    );
    const runtime = createRuntime({
      model,
      tools: await hub.tools(),
      agents: [{ name: 'a', description: 'd', systemPrompt: 'p' }],
      approval: 'auto',
    });
    const result = await runtime.spawn({ agent: 'a', prompt: 'count' }).result;
    expect(result.output).toMatch(
      /invalid input for tool \\"mcp__faulty__count\\": n: expected a number >= 1, got a number \(0\)/,
    );
    expect(result.output).toMatch(/n: expected an integer, got a string/);
    expect(readFileSync(join(dir, 'count.log'), 'utf8')).toBe('2\n');
    await runtime.shutdown();
  });
});

describe('shutdown', () => {
  it('leaves no child process: the server and what it started are gone', async () => {
    const { hub } = hubWith();
    const tools = await hub.tools();
    const grandchild = Number(
      textOf(await findTool(tools, 'mcp__faulty__spawn-child').execute({}, toolContext())),
    );
    const server = await serverPid(hub);
    expect(isAlive(grandchild)).toBe(true);
    expect(isAlive(server)).toBe(true);
    await hub.close();
    expect(isAlive(server)).toBe(false);
    await expect.poll(() => isAlive(grandchild), { timeout: 5_000 }).toBe(false);
    await expect(findTool(tools, 'mcp__faulty__ok').execute({}, toolContext())).rejects.toThrow(
      /has been shut down/,
    );
  });

  it('a crashed server leaves no orphan either', async () => {
    const { hub } = hubWith();
    const tools = await hub.tools();
    const grandchild = Number(
      textOf(await findTool(tools, 'mcp__faulty__spawn-child').execute({}, toolContext())),
    );
    await Promise.resolve(findTool(tools, 'mcp__faulty__crash').execute({}, toolContext())).catch(() => {});
    await expect.poll(() => isAlive(grandchild), { timeout: 5_000 }).toBe(false);
  });
});

/** The pid of the hub's only stdio server, from its process group (ps). */
async function serverPid(hub: McpHub): Promise<number> {
  const { execFileSync } = await import('node:child_process');
  const lines = execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' }).split('\n');
  const line = lines.find((text) => text.includes(FAULTY) && text.includes(process.execPath));
  expect(hub.status()[0]!.state).toBe('ready');
  return Number(line!.trim().split(/\s+/)[0]);
}
