import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { ToolContext } from '@troupe/core';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';

/** A temporary directory holding `workspace/` (the tools' root) and `outside/` (beyond it). */
export interface TestWorkspace {
  base: string;
  root: string;
  outside: string;
  /** Writes files under the root (paths relative to it); parent directories are created. */
  write(files: Record<string, string | Uint8Array>): Promise<void>;
  /** Creates a symbolic link at `path` (relative to the root) pointing to `target` (as given). */
  link(path: string, target: string): Promise<void>;
  cleanup(): Promise<void>;
}

/** Options of {@link createTestWorkspace}. */
export interface TestWorkspaceOptions {
  /** The start of the temporary directory's name (default `troupe-node-`). */
  prefix?: string;
  /** The text of `outside/secret.txt`, the file escapes try to read (default `top secret\n`). */
  secret?: string;
}

/**
 * Creates a {@link TestWorkspace} holding `files` (paths relative to the root), with
 * `outside/secret.txt` beside the root. Shared by `@troupe/node`'s tool tests and `test/security`.
 */
export async function createTestWorkspace(
  files: Record<string, string | Uint8Array> = {},
  options: TestWorkspaceOptions = {},
): Promise<TestWorkspace> {
  const base = await mkdtemp(join(tmpdir(), options.prefix ?? 'troupe-node-'));
  const root = join(base, 'workspace');
  const outside = join(base, 'outside');
  await mkdir(root);
  await mkdir(outside);
  await writeFile(join(outside, 'secret.txt'), options.secret ?? 'top secret\n');
  const workspace: TestWorkspace = {
    base,
    root,
    outside,
    async write(entries) {
      for (const [path, content] of Object.entries(entries)) {
        const full = join(root, path);
        await mkdir(dirname(full), { recursive: true });
        await writeFile(full, content);
      }
    },
    async link(path, target) {
      const full = join(root, path);
      await mkdir(dirname(full), { recursive: true });
      await symlink(target, full);
    },
    cleanup: () => rm(base, { recursive: true, force: true }),
  };
  await workspace.write(files);
  return workspace;
}

/**
 * Gives each test of the calling file a fresh {@link TestWorkspace} holding `files`, cleaned up
 * after the test (with `perFile`, one for all the file's tests, cleaned up after them). The returned
 * workspace stands for the current one (its fields throw when there is none). Call it before any
 * `beforeEach`/`beforeAll` that uses the workspace.
 */
export function useTestWorkspace(
  files: Record<string, string | Uint8Array> = {},
  options: TestWorkspaceOptions & { perFile?: boolean } = {},
): TestWorkspace {
  let current: TestWorkspace | undefined;
  (options.perFile ? beforeAll : beforeEach)(async () => {
    current = await createTestWorkspace(files, options);
  });
  (options.perFile ? afterAll : afterEach)(async () => {
    await current?.cleanup();
    current = undefined;
  });
  const now = (): TestWorkspace => {
    if (!current) throw new Error('useTestWorkspace: the workspace exists only while the tests run');
    return current;
  };
  return {
    get base() {
      return now().base;
    },
    get root() {
      return now().root;
    },
    get outside() {
      return now().outside;
    },
    write: (entries) => now().write(entries),
    link: (path, target) => now().link(path, target),
    cleanup: () => now().cleanup(),
  };
}

/** A tool context for direct `execute` calls. */
export function toolContext(signal: AbortSignal = new AbortController().signal): ToolContext {
  return { signal, taskId: 'task-test', agent: 'tester', toolUseId: 'toolu_test' };
}

/** The error a tool call fails with, or undefined when it succeeds. */
export async function failureOf(call: () => unknown): Promise<Error | undefined> {
  try {
    await call();
    return undefined;
  } catch (error) {
    return error as Error;
  }
}
