import { toolResultText } from '@troupe/core';
import { manualClock } from '@troupe/core/testing';
import { describe, expect, it, vi } from 'vitest';
import { createNodeMcpHub } from '../src/node/index.js';
import { HOSTILE, nodeServer } from './servers.js';
import { failureOf, findTool, toolContext, useNodeHubs } from './tool-calls.js';

// Real server processes sending tens of megabytes: seconds each on a busy machine.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

const createHub = useNodeHubs();

function hubWith(mode = 'ok', options: { maxMessageBytes?: number } = {}) {
  return createHub({ servers: [nodeServer('big', HOSTILE, [mode])], ...options });
}

describe('a stdio server sending a message over the limit', () => {
  it('a 60 MB result is an error naming server, tool and size; the same connection serves the next call', async () => {
    const hub = hubWith();
    const tools = await hub.tools();
    const error = await failureOf(findTool(tools, 'mcp__big__huge').execute({ mb: 60 }, toolContext()));
    expect(error?.message).toBe(
      'MCP server "big" sent a 60 MB message in answer to "huge", over the 10 MB limit; the result was dropped.',
    );
    expect(toolResultText(await findTool(tools, 'mcp__big__ok').execute({}, toolContext()))).toBe('ok');
    expect(hub.status()[0]).toMatchObject({ state: 'ready' });
    expect(hub.status()[0]!.error).toBeUndefined();
  });

  it('the limit is an option: 1 MB refuses a 2 MB result and lets a 0.5 MB one through', async () => {
    const hub = hubWith('ok', { maxMessageBytes: 1024 * 1024 });
    const tools = await hub.tools();
    expect(
      (await failureOf(findTool(tools, 'mcp__big__huge').execute({ mb: 2 }, toolContext())))?.message,
    ).toMatch(/^MCP server "big" sent a 2 MB message in answer to "huge", over the 1 MB limit/);
    const half = toolResultText(await findTool(tools, 'mcp__big__huge').execute({ mb: 0.5 }, toolContext()));
    expect(half).toMatch(/^x{30000}\n\[Output truncated: /);
  });

  it('a huge notification is dropped; the call that sent it still gets its answer', async () => {
    const hub = hubWith();
    const tools = await hub.tools();
    const output = await findTool(tools, 'mcp__big__huge-notification').execute({ mb: 12 }, toolContext());
    expect(toolResultText(output)).toBe('ok after a huge notification');
  });

  it('an oversized answer whose id only a full read shows is the only pending call’s error', async () => {
    const hub = hubWith();
    const tools = await hub.tools();
    const error = await failureOf(
      findTool(tools, 'mcp__big__huge-hidden-id').execute({ mb: 12 }, toolContext()),
    );
    expect(error?.message).toMatch(/^MCP server "big" sent a 12 MB message in answer to "huge-hidden-id"/);
    expect(toolResultText(await findTool(tools, 'mcp__big__ok').execute({}, toolContext()))).toBe('ok');
  });

  it('an oversized answer that cannot be matched while two calls wait restarts the connection, saying why', async () => {
    const clock = manualClock();
    const hub = createHub({ servers: [nodeServer('big', HOSTILE)], clock });
    const tools = await hub.tools();
    const [slow, hidden] = await Promise.all([
      failureOf(findTool(tools, 'mcp__big__slow').execute({ ms: 30_000 }, toolContext())),
      failureOf(findTool(tools, 'mcp__big__huge-hidden-id').execute({ mb: 12 }, toolContext())),
    ]);
    for (const [error, tool] of [
      [slow, 'slow'],
      [hidden, 'huge-hidden-id'],
    ] as const)
      expect(error?.message).toMatch(
        new RegExp(
          `^MCP server "big" failed while calling "${tool}": it sent a 12 MB message, over the 10 MB limit, an answer troupe could not match to a request.* It will be restarted on next use\\.$`,
        ),
      );
    clock.advance(1_000);
    expect(toolResultText(await findTool(tools, 'mcp__big__ok').execute({}, toolContext()))).toBe('ok');
  });

  it('a tool list over the limit is a clear server problem, not an exception', async () => {
    const hub = hubWith('many-tools');
    expect(await hub.tools()).toEqual([]);
    expect(hub.status()[0]).toMatchObject({ state: 'failed' });
    expect(hub.status()[0]!.error).toMatch(
      /^its tool list was a 1\d(\.\d)? MB message, over the 10 MB limit; it was dropped$/,
    );
  });

  it('20,000 small tools (1 MB) are a clear server problem: more than 1,000 tools', async () => {
    const hub = hubWith('many-small-tools');
    expect(await hub.tools()).toEqual([]);
    expect(hub.status()[0]).toMatchObject({ state: 'failed' });
    expect(hub.status()[0]!.error).toBe(
      'it lists more than 1,000 tools, too many to offer a model; none of them is offered',
    );
  });

  it('a tool list with a next page forever ends at 1,000 tools instead of growing without end', async () => {
    const hub = hubWith('endless-pages');
    expect(await hub.tools()).toEqual([]);
    expect(hub.status()[0]!.error).toBe(
      'it lists more than 1,000 tools, too many to offer a model; none of them is offered',
    );
  });
});

describe('the maxMessageBytes option', () => {
  it.each([0, -1, 1.5, Number.NaN, 1023])('%s is refused with a message naming the option', (value) => {
    expect(() => createNodeMcpHub({ maxMessageBytes: value })).toThrow(
      expect.objectContaining({
        name: 'ValidationError',
        message: `createMcpHub: maxMessageBytes must be an integer >= 1024 (bytes); got ${value}.`,
      }),
    );
  });
});
