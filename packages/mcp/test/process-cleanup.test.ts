import { type Tool, toolResultText } from '@troupe/core';
import { describe, expect, it, vi } from 'vitest';
import { isRunning } from '../src/node/process-tree.js';
import { killedAfterEach } from './leftover-processes.js';
import { HOSTILE, nodeServer } from './servers.js';
import { findTool, toolContext, useNodeHubs } from './tool-calls.js';

// Real server processes: seconds each on a busy machine.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

// What a stdio server starts does not outlive it, even when it leaves the server's process group.

// What a failing run leaves is not left to sleep for ten minutes.
const started = killedAfterEach();

// Registered after killedAfterEach, so that it runs first: hubs close, then leftovers are killed.
const createHub = useNodeHubs();

async function serverWithTools() {
  const hub = createHub({ servers: [nodeServer('hostile', HOSTILE)] });
  return { hub, tools: await hub.tools() };
}

async function startDaemon(tools: Tool[], name: string, input: Record<string, unknown> = {}) {
  const pid = Number(
    toolResultText(await findTool(tools, `mcp__hostile__${name}`).execute(input, toolContext())),
  );
  started.push(pid);
  expect(isRunning(pid)).toBe(true);
  return pid;
}

describe('close() stops what a stdio server started', () => {
  it('a child in a session of its own (spawn detached, setsid) is gone when close() returns', async () => {
    const { hub, tools } = await serverWithTools();
    const daemon = await startDaemon(tools, 'daemon');
    await hub.close();
    expect(isRunning(daemon)).toBe(false);
  });

  it('a detached child that cleared its environment is found as the server’s descendant', async () => {
    const { hub, tools } = await serverWithTools();
    const daemon = await startDaemon(tools, 'daemon', { clearEnvironment: true });
    await hub.close();
    expect(isRunning(daemon)).toBe(false);
  });

  it('a double-forked daemon (setsid -f, handed to init at once) is gone when close() returns', async () => {
    const { hub, tools } = await serverWithTools();
    const daemon = await startDaemon(tools, 'double-fork');
    await hub.close();
    expect(isRunning(daemon)).toBe(false);
  });

  it('a daemon that ignores SIGTERM is killed after the grace period', async () => {
    const { hub, tools } = await serverWithTools();
    const daemon = await startDaemon(tools, 'double-fork', { ignoreTerm: true });
    await hub.close();
    expect(isRunning(daemon)).toBe(false);
  });
});

describe('a stdio server that crashes', () => {
  it('leaves no detached or double-forked daemon behind', async () => {
    const { hub, tools } = await serverWithTools();
    const detached = await startDaemon(tools, 'daemon');
    const forked = await startDaemon(tools, 'double-fork');
    await expect(findTool(tools, 'mcp__hostile__crash').execute({}, toolContext())).rejects.toThrow(
      /MCP server "hostile" failed while calling "crash": the server exited/,
    );
    await expect.poll(() => isRunning(detached) || isRunning(forked), { timeout: 10_000 }).toBe(false);
    expect(hub.status()[0]).toMatchObject({ state: 'failed' });
  });
});
