import { execFileSync } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRuntime, defineTool, parseAgentFile, type RuntimeWarning } from '@troupe/core';
import { scriptedModel } from '@troupe/core/testing';
import * as v from 'valibot';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EVERYTHING, FAULTY, FILESYSTEM, nodeServer } from './servers.js';
import { callOnce, useNodeHubs } from './tool-calls.js';

// Real servers start as processes: seconds each on a busy machine.
vi.setConfig({ testTimeout: 90_000, hookTimeout: 60_000 });

// Servers start lazily: when a task whose agent can use one of their tools starts (through the
// hub's tool source), once, shared by every task after. Real server-filesystem and
// server-everything from node_modules; the faulty fixture for a server that cannot start.
let root: string;
beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'troupe-mcp-lazy-')));
  writeFileSync(join(root, 'notes.txt'), 'The launch code is 1234.\n');
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});
// Registered after the afterEach above, so that it runs first: hubs close, then their folder goes.
const createHub = useNodeHubs();

/** Pids of live processes whose command line has every one of `parts`. */
function processesWith(...parts: string[]): number[] {
  return execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' })
    .split('\n')
    .filter((line) => parts.every((part) => line.includes(part)))
    .map((line) => Number(line.trim().split(/\s+/)[0]));
}

const agentFile = (name: string, tools: string) =>
  parseAgentFile(`---\nname: ${name}\ndescription: ${name}\ntools: ${tools}\n---\nYou ${name}.`, {
    path: `${name}.md`,
  }).definition;

const echo = defineTool({
  name: 'echo',
  description: 'Echo text',
  access: 'read',
  input: v.object({ text: v.string() }),
  execute: ({ text }) => text,
});

describe('MCP servers start lazily, on the first task that can use them', () => {
  it('no server process before the first task that uses it; then one process shared by two tasks; a task that cannot use it starts none', async () => {
    const hub = createHub({
      servers: [
        // The user's configuration (not the servers' hints) lets these calls skip approval.
        nodeServer('filesystem', FILESYSTEM, [root], { toolAccess: { read_text_file: 'read' } }),
        nodeServer('everything', EVERYTHING, ['stdio', root], { toolAccess: { echo: 'read' } }),
      ],
    });
    const model = scriptedModel((request) =>
      request.agent === 'echoer'
        ? { content: [{ type: 'text', text: 'no MCP here' }] }
        : callOnce('mcp__filesystem__read_text_file', { path: join(root, 'notes.txt') }).generate(
            request,
            new AbortController().signal,
          ),
    );
    const runtime = createRuntime({
      model,
      tools: [echo],
      agents: [agentFile('reader', 'mcp__filesystem__read_text_file'), agentFile('echoer', 'echo')],
      toolSources: [hub.toolSource()],
      limits: { maxConcurrent: 2 },
    });
    expect(processesWith(FILESYSTEM, root)).toEqual([]);
    const plain = await runtime.spawn({ agent: 'echoer', prompt: 'say hi' }).result;
    expect(plain.output).toBe('no MCP here');
    expect(processesWith(root)).toEqual([]);
    expect(hub.status().map((server) => server.state)).toEqual(['idle', 'idle']);

    const [first, second] = await Promise.all([
      runtime.spawn({ agent: 'reader', prompt: 'Read notes.txt' }).result,
      runtime.spawn({ agent: 'reader', prompt: 'Read notes.txt again' }).result,
    ]);
    expect(first).toMatchObject({ status: 'completed', output: 'The launch code is 1234.\n' });
    expect(second).toMatchObject({ status: 'completed', output: 'The launch code is 1234.\n' });
    // One filesystem server for both tasks; server-everything, which no task could use, never started.
    expect(processesWith(FILESYSTEM, root)).toHaveLength(1);
    expect(processesWith(EVERYTHING, root)).toEqual([]);
    expect(hub.status().map((server) => [server.name, server.state])).toEqual([
      ['filesystem', 'ready'],
      ['everything', 'idle'],
    ]);
    const third = await runtime.spawn({ agent: 'reader', prompt: 'Once more' }).result;
    expect(third.status).toBe('completed');
    expect(processesWith(FILESYSTEM, root)).toHaveLength(1);
    await runtime.shutdown();
    await hub.close();
    expect(processesWith(FILESYSTEM, root)).toEqual([]);
  });

  it('an agent that reaches a server by pattern (mcp__everything) starts only that one and sees all its tools', async () => {
    const hub = createHub({
      servers: [
        // The user's configuration (not the servers' hints) lets these calls skip approval.
        nodeServer('filesystem', FILESYSTEM, [root], { toolAccess: { read_text_file: 'read' } }),
        nodeServer('everything', EVERYTHING, ['stdio', root], { toolAccess: { echo: 'read' } }),
      ],
    });
    const model = callOnce('mcp__everything__echo', { message: 'lazy hello' });
    const runtime = createRuntime({
      model,
      agents: [agentFile('everyone', 'mcp__everything')],
      toolSources: [hub.toolSource()],
    });
    const result = await runtime.spawn({ agent: 'everyone', prompt: 'echo' }).result;
    expect(result.output).toBe('Echo: lazy hello');
    expect(model.requests[0]!.tools.map((tool) => tool.name)).toContain('mcp__everything__get-sum');
    expect(processesWith(EVERYTHING, root)).toHaveLength(1);
    expect(processesWith(FILESYSTEM, root)).toEqual([]);
    await runtime.shutdown();
  });

  it('a server that fails to start on first use: the task gets an error result naming the server, and a warning', async () => {
    const hub = createHub({ servers: [nodeServer('faulty', FAULTY, ['exit-at-start'])] });
    const model = callOnce('mcp__faulty__ok', {});
    const runtime = createRuntime({
      model,
      agents: [agentFile('user', 'mcp__faulty__ok')],
      toolSources: [hub.toolSource()],
      approval: 'auto',
    });
    const warnings: RuntimeWarning[] = [];
    runtime.on('runtime.warning', (warning) => warnings.push(warning));
    const handle = runtime.spawn({ agent: 'user', prompt: 'use it' });
    const result = await handle.result;
    expect(result.status).toBe('completed');
    expect(result.output).toMatch(
      /^ERROR .*MCP server "faulty" is unavailable.* "mcp__faulty__ok".*cannot open its database/,
    );
    expect(warnings).toEqual([
      {
        code: 'TOOL_SOURCE_FAILED',
        message: expect.stringMatching(
          /^MCP server "faulty" is unavailable, so its tools are missing: it failed to start: .*cannot open its database/,
        ),
        taskId: handle.id,
      },
    ]);
    await runtime.shutdown();
  });
});
