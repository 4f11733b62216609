import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { ToolContext } from '@troupe/core';

/** A temporary directory holding `workspace/` (the tools' root) and `outside/` with a secret. */
export interface Sandbox {
  base: string;
  root: string;
  outside: string;
  write(files: Record<string, string>): Promise<void>;
  link(path: string, target: string): Promise<void>;
  cleanup(): Promise<void>;
}

/** The text of the file every escape test tries to read. */
export const SECRET = 'TOP-SECRET-OUTSIDE-THE-WORKSPACE';

export async function createSandbox(files: Record<string, string> = {}): Promise<Sandbox> {
  const base = await mkdtemp(join(tmpdir(), 'troupe-security-'));
  const root = join(base, 'workspace');
  const outside = join(base, 'outside');
  await mkdir(root);
  await mkdir(outside);
  await writeFile(join(outside, 'secret.txt'), `${SECRET}\n`);
  const sandbox: Sandbox = {
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
  await sandbox.write(files);
  return sandbox;
}

/** A tool context for direct `execute` calls. */
export function toolContext(signal: AbortSignal = new AbortController().signal): ToolContext {
  return { signal, taskId: 'security-test', agent: 'attacker', toolUseId: 'toolu_attack' };
}

/** Runs a tool call and returns its text, or the message of the error it threw. */
export async function outcome(run: () => unknown): Promise<string> {
  try {
    const value = await run();
    return typeof value === 'string' ? value : JSON.stringify(value);
  } catch (error) {
    return `ERROR: ${(error as Error).message}`;
  }
}
