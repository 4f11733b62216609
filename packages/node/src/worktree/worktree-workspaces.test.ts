import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AgentDefinition, createRuntime, type ModelRequest, TroupeError } from '@troupe/core';
import { scriptedModel, textReply, toolReply } from '@troupe/core/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { createNodeTools } from '../tools/create-node-tools.js';
import { createWorktreeWorkspaces } from './worktree-workspaces.js';

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

function temp(name: string): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), `troupe-worktree-${name}-`)));
  made.push(dir);
  return dir;
}

const gitIn = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-C', cwd, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

/** A repository with one commit holding `shared.txt`, and a folder for its task worktrees. */
function repository(): { repo: string; worktrees: string } {
  const repo = temp('repo');
  gitIn(repo, 'init', '-q', '-b', 'main');
  writeFileSync(join(repo, 'shared.txt'), 'original\n');
  gitIn(repo, 'add', '.');
  gitIn(repo, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'init');
  return { repo, worktrees: join(temp('worktrees'), 'repo') };
}

const isolated: AgentDefinition = {
  name: 'isolated',
  description: 'Works in a worktree of its own.',
  systemPrompt: 'You work alone.',
  isolation: 'worktree',
};

const turnOf = (request: ModelRequest) =>
  request.messages.filter((message) => message.role === 'assistant').length + 1;
const promptOf = (request: ModelRequest) => String(request.messages[0]!.content);
const lastToolResult = (request: ModelRequest) => JSON.stringify(request.messages.at(-1)!.content);

function runtimeFor(repo: string, worktrees: string, model: ReturnType<typeof scriptedModel>) {
  return createRuntime({
    model,
    agents: [isolated],
    tools: createNodeTools({ root: repo }),
    approval: 'auto',
    workspaces: createWorktreeWorkspaces({ root: repo, dir: worktrees }),
  });
}

describe('isolation: worktree (createWorktreeWorkspaces, real git)', () => {
  it('two tasks edit the same file in parallel, each in its own worktree; the main workspace is untouched; both are kept with branch and diff', async () => {
    const { repo, worktrees } = repository();
    let wrote = 0;
    let bothWrote!: () => void;
    const both = new Promise<void>((resolve) => {
      bothWrote = resolve;
    });
    const model = scriptedModel(async (request) => {
      const prompt = promptOf(request);
      const turn = turnOf(request);
      if (turn === 1) return toolReply('write', { file_path: 'shared.txt', content: `${prompt}\n` });
      if (turn === 2) {
        if (++wrote === 2) bothWrote();
        await both;
        return toolReply('bash', { command: 'pwd; cat shared.txt' });
      }
      return textReply(lastToolResult(request));
    });
    const runtime = runtimeFor(repo, worktrees, model);
    const first = runtime.spawn({ agent: 'isolated', prompt: 'first' });
    const second = runtime.spawn({ agent: 'isolated', prompt: 'second' });
    const [one, two] = await Promise.all([first.result, second.result]);
    await runtime.shutdown();
    // Each saw its own file, after the other had written: neither sees the other's change.
    expect(one.output).toContain(`${join(worktrees, first.id)}\\nfirst`);
    expect(two.output).toContain(`${join(worktrees, second.id)}\\nsecond`);
    expect(readFileSync(join(repo, 'shared.txt'), 'utf8')).toBe('original\n');
    expect(gitIn(repo, 'status', '--porcelain')).toBe('');
    for (const [handle, result, text] of [
      [first, one, 'first'],
      [second, two, 'second'],
    ] as const) {
      expect(result.workspace).toEqual({
        path: join(worktrees, handle.id),
        branch: `troupe/isolated-${handle.id}`,
        kept: true,
        files: 1,
        added: 1,
        removed: 1,
        changes: [{ file: 'shared.txt', added: 1, removed: 1 }],
      });
      expect(readFileSync(join(worktrees, handle.id, 'shared.txt'), 'utf8')).toBe(`${text}\n`);
    }
    expect(gitIn(repo, 'branch', '--list', 'troupe/*').split('\n').filter(Boolean)).toHaveLength(2);
  });

  it('removes a worktree the task did not change, and its branch', async () => {
    const { repo, worktrees } = repository();
    const model = scriptedModel((request) =>
      turnOf(request) === 1 ? toolReply('read', { file_path: 'shared.txt' }) : textReply('read it'),
    );
    const runtime = runtimeFor(repo, worktrees, model);
    const handle = runtime.spawn({ agent: 'isolated', prompt: 'look' });
    const result = await handle.result;
    await runtime.shutdown();
    expect(result.status).toBe('completed');
    expect(lastToolResult(model.requests[1]!)).toContain('original');
    expect(result.workspace).toMatchObject({ kept: false, files: 0, branch: `troupe/isolated-${handle.id}` });
    expect(existsSync(join(worktrees, handle.id))).toBe(false);
    expect(gitIn(repo, 'branch', '--list', 'troupe/*')).toBe('');
    expect(gitIn(repo, 'worktree', 'list').trim().split('\n')).toHaveLength(1);
  });

  it('a cancelled task keeps its worktree when it changed something, and loses it when not', async () => {
    const { repo, worktrees } = repository();
    const model = scriptedModel((request, { signal }) => {
      if (promptOf(request) === 'edit' && turnOf(request) === 1)
        return toolReply('write', { file_path: 'new.txt', content: 'one\ntwo\n' });
      return new Promise((_resolve, reject) =>
        signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true }),
      );
    });
    const runtime = runtimeFor(repo, worktrees, model);
    const edited = runtime.spawn({ agent: 'isolated', prompt: 'edit' });
    const idle = runtime.spawn({ agent: 'isolated', prompt: 'idle' });
    await expect.poll(() => model.requests.length, { timeout: 20_000 }).toBe(3);
    runtime.cancel(edited.id);
    runtime.cancel(idle.id);
    const [kept, removed] = await Promise.all([edited.result, idle.result]);
    await runtime.shutdown();
    expect(kept).toMatchObject({
      status: 'cancelled',
      workspace: { kept: true, files: 1, added: 2, removed: 0 },
    });
    expect(kept.workspace?.changes).toEqual([{ file: 'new.txt', added: 2, removed: 0 }]);
    expect(readFileSync(join(worktrees, edited.id, 'new.txt'), 'utf8')).toBe('one\ntwo\n');
    expect(removed).toMatchObject({ status: 'cancelled', workspace: { kept: false } });
    expect(existsSync(join(worktrees, idle.id))).toBe(false);
    expect(existsSync(join(repo, 'new.txt'))).toBe(false);
  });

  it('a workspace that is not in a git repository is an error naming the folder, at spawn', async () => {
    const plain = temp('plain');
    const runtime = runtimeFor(
      plain,
      join(plain, 'worktrees'),
      scriptedModel(() => textReply('no')),
    );
    let thrown: unknown;
    try {
      runtime.spawn({ agent: 'isolated', prompt: 'hi' });
    } catch (error) {
      thrown = error;
    }
    await runtime.shutdown();
    expect(TroupeError.isInstance(thrown) && thrown.code).toBe('WORKSPACE_UNAVAILABLE');
    expect((thrown as Error).message).toBe(
      `isolation: worktree needs a git repository, and the workspace ${plain} is not in one. Run \`git init\` there (and commit), or remove isolation from the agent.`,
    );
  });
});
