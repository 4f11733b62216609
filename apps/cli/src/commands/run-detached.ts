import { spawn } from 'node:child_process';
import { createTaskId } from '@troupe/core';
import type { CliContext } from '../io.js';

/**
 * `troupe run --background`: starts `troupe run --agent AGENT --task-id ID ...` as a detached
 * process that outlives this one and persists the task to the store, then reports the id.
 */
export function startDetached(
  context: CliContext,
  options: { prompt: string; agent: string; storeDir: string; approval?: string },
): { taskId: string; pid: number | undefined } {
  const taskId = createTaskId();
  const { line } = context;
  const args = [
    context.script,
    'run',
    '--agent',
    options.agent,
    '--task-id',
    taskId,
    '--store',
    options.storeDir,
  ];
  if (options.approval) args.push('--approval', options.approval);
  if (line.options.trustProject) args.push('--trust-project');
  if (line.options.model) args.push('--model', line.options.model);
  if (line.options.smallModel) args.push('--small-model', line.options.smallModel);
  if (line.options.planModel) args.push('--plan-model', line.options.planModel);
  args.push('--', options.prompt);
  const child = spawn(process.execPath, [...process.execArgv, ...args], {
    cwd: context.cwd,
    env: { ...context.env } as NodeJS.ProcessEnv,
    detached: true,
    stdio: 'ignore',
  });
  child.unref();
  return { taskId, pid: child.pid };
}
