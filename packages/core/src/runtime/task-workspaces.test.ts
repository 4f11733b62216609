import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import type { AgentDefinition } from '../definitions/types.js';
import { TroupeError } from '../errors.js';
import type { TaskWorkspaceRecord } from '../persistence/types.js';
import { replayTask } from '../replay/replay-task.js';
import { createMemoryStore } from '../store/memory-store.js';
import { textReply, toolReply } from '../testing/scripted-model.js';
import { defineTool } from '../tools/define-tool.js';
import type { TaskWorkspaces } from './task-workspaces.js';
import { fixtureAgents, fixtureRuntime, turnOf } from './test-fixtures.js';

const isolated: AgentDefinition = {
  name: 'isolated',
  description: 'Works on its own copy.',
  systemPrompt: 'You work alone.',
  tools: ['echo'],
  isolation: 'worktree',
};

/** Workspaces kept in memory: each task's `echo` answers from its own folder name. */
function memoryWorkspaces(options: { failOpen?: boolean } = {}) {
  const opened: string[] = [];
  const closed: string[] = [];
  const workspaces: TaskWorkspaces = {
    plan: ({ taskId, agent, isolation }) => ({
      isolation,
      path: `/worktrees/${taskId}`,
      branch: `troupe/${agent}-${taskId}`,
    }),
    async open(workspace: TaskWorkspaceRecord) {
      opened.push(workspace.path);
      if (options.failOpen) throw new Error(`no git at ${workspace.path}`);
      return [
        defineTool({
          name: 'echo',
          description: 'Echo text',
          access: 'read',
          input: v.object({ text: v.string() }),
          execute: ({ text }) => `echo in ${workspace.path}: ${text}`,
        }),
      ];
    },
    async close(workspace) {
      closed.push(workspace.path);
      return {
        path: workspace.path,
        ...(workspace.branch ? { branch: workspace.branch } : {}),
        kept: true,
        files: 1,
        added: 2,
        removed: 0,
        changes: [{ file: 'notes.txt', added: 2, removed: 0 }],
      };
    },
  };
  return { workspaces, opened, closed };
}

const echoes = (request: Parameters<typeof turnOf>[0]) =>
  turnOf(request) === 1 ? toolReply('echo', { text: 'hi' }) : textReply('done');

describe('a task in a workspace of its own (createRuntime({ workspaces }))', () => {
  it('plans the workspace into the spec, runs the workspace’s tools in place of the shared ones, and names the outcome on the result', async () => {
    const store = createMemoryStore();
    const host = memoryWorkspaces();
    const { runtime, calls, model } = fixtureRuntime(echoes, {
      agents: [...fixtureAgents, isolated],
      workspaces: host.workspaces,
      store,
    });
    const handle = runtime.spawn({ agent: 'isolated', prompt: 'echo hi' });
    const result = await handle.result;
    expect(result.status).toBe('completed');
    // The shared `echo` never ran; the workspace's did.
    expect(calls).toEqual([]);
    const toolResult = JSON.stringify(model.requests[1]!.messages.at(-1));
    expect(toolResult).toContain(`echo in /worktrees/${handle.id}: hi`);
    expect(result.workspace).toEqual({
      path: `/worktrees/${handle.id}`,
      branch: `troupe/isolated-${handle.id}`,
      kept: true,
      files: 1,
      added: 2,
      removed: 0,
      changes: [{ file: 'notes.txt', added: 2, removed: 0 }],
    });
    expect(host.opened).toEqual([`/worktrees/${handle.id}`]);
    expect(host.closed).toEqual([`/worktrees/${handle.id}`]);
    await runtime.shutdown();
    const stored = await store.getTask(handle.id);
    expect(stored?.spec.workspace).toEqual({
      isolation: 'worktree',
      path: `/worktrees/${handle.id}`,
      branch: `troupe/isolated-${handle.id}`,
    });
    expect(stored?.result?.workspace?.branch).toBe(`troupe/isolated-${handle.id}`);
    // The workspace's outcome is the host's: the replay of the journal still matches.
    const replay = await replayTask(store, handle.id);
    expect(replay.matches, replay.differences.join('\n')).toBe(true);
  });

  it('refuses to spawn an isolated agent on a runtime that gives no workspaces, naming the agent', () => {
    const { runtime } = fixtureRuntime(echoes, { agents: [...fixtureAgents, isolated] });
    let thrown: unknown;
    try {
      runtime.spawn({ agent: 'isolated', prompt: 'echo hi' });
    } catch (error) {
      thrown = error;
    }
    expect(TroupeError.isInstance(thrown) && thrown.code).toBe('WORKSPACE_UNAVAILABLE');
    expect(String((thrown as Error).message)).toMatch(/Agent "isolated" asks for isolation: worktree/);
  });

  it('fails the task, with no tool run anywhere, when its workspace cannot be opened', async () => {
    const host = memoryWorkspaces({ failOpen: true });
    const { runtime, calls, model } = fixtureRuntime(echoes, {
      agents: [...fixtureAgents, isolated],
      workspaces: host.workspaces,
    });
    const handle = runtime.spawn({ agent: 'isolated', prompt: 'echo hi' });
    const result = await handle.result;
    expect(result).toMatchObject({ status: 'failed', terminateReason: 'ERROR' });
    expect(result.error).toMatchObject({ code: 'WORKSPACE_UNAVAILABLE' });
    expect(result.error?.message).toMatch(
      /could not open its workspace \(worktree at \/worktrees\/.*\): no git/,
    );
    expect(model.requests).toHaveLength(0);
    expect(calls).toEqual([]);
  });

  it('closes the workspace of a task cancelled before it started, and waits for closes at shutdown', async () => {
    const host = memoryWorkspaces();
    const { runtime } = fixtureRuntime(() => new Promise(() => {}), {
      agents: [...fixtureAgents, isolated],
      workspaces: host.workspaces,
      limits: { maxConcurrent: 1 },
    });
    const running = runtime.spawn({ agent: 'isolated', prompt: 'first' });
    const queued = runtime.spawn({ agent: 'isolated', prompt: 'second' });
    runtime.cancel(queued.id);
    expect((await queued.result).workspace?.path).toBe(`/worktrees/${queued.id}`);
    await runtime.shutdown();
    expect((await running.result).status).toBe('cancelled');
    expect(host.closed.sort()).toEqual([`/worktrees/${queued.id}`, `/worktrees/${running.id}`].sort());
  });

  it('a fork of an isolated task gets a workspace of its own, never the original’s', async () => {
    const host = memoryWorkspaces();
    const { runtime } = fixtureRuntime(echoes, {
      agents: [...fixtureAgents, isolated],
      workspaces: host.workspaces,
    });
    const original = runtime.spawn({ agent: 'isolated', prompt: 'echo hi' });
    await original.result;
    const fork = await runtime.fork(original.id, { atStep: 1 });
    const result = await fork.result;
    await runtime.shutdown();
    expect(fork.id).not.toBe(original.id);
    expect(result.workspace?.path).toBe(`/worktrees/${fork.id}`);
    expect(host.opened).toEqual([`/worktrees/${original.id}`, `/worktrees/${fork.id}`]);
  });
});
