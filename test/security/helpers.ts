import type { ToolContext } from '@troupe/core';
import { createTestWorkspace, type TestWorkspace } from '../../packages/node/test/helpers/workspace.js';

/** A temporary directory holding `workspace/` (the tools' root) and `outside/` with {@link SECRET}. */
export type Sandbox = TestWorkspace;

/** The text of the file every escape test tries to read. */
export const SECRET = 'TOP-SECRET-OUTSIDE-THE-WORKSPACE';

/** Creates a {@link Sandbox} holding `files` (paths relative to its root). */
export function createSandbox(files: Record<string, string> = {}): Promise<Sandbox> {
  return createTestWorkspace(files, { prefix: 'troupe-security-', secret: `${SECRET}\n` });
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
