import { type TaskInfo, type TaskResult, type Usage, type UsageReport, usageReport } from '@troupe/core';

/** A sub-agent task's `TaskInfo` (an explore task of session `s`), with `fields` over it. */
export function taskInfo(id: string, fields: Partial<TaskInfo> = {}): TaskInfo {
  return {
    id,
    agent: 'explore',
    status: 'running',
    sessionKey: 's',
    description: id,
    background: false,
    depth: 1,
    model: 'claude-haiku-5-5',
    createdAt: 0,
    turns: 1,
    toolCalls: 0,
    tokens: 0,
    elapsedMs: 0,
    ...fields,
  };
}

/** One ended run the ledger counts: a sub-agent task, or a main-agent run (`depth: 0`). */
export interface EndedRun {
  usage: Usage;
  agent?: string;
  model?: string;
  depth?: number;
}

/**
 * The usage ledger of `runs`, as `runtime.usage` reports it: core's `usageReport` over a history
 * of ended tasks (one page), each with its usage stored in its result.
 */
export function ledgerOf(runs: readonly EndedRun[]): Promise<UsageReport> {
  const tasks = runs.map(({ usage, agent = 'explore', model = 'claude-haiku-5-5', depth = 1 }, index) => {
    const id = `t${index}`;
    const result: TaskResult = {
      taskId: id,
      agent,
      status: 'completed',
      terminateReason: 'GOAL',
      output: '',
      turns: 1,
      toolCalls: 0,
      durationMs: 0,
      model,
      usage: { ...usage, total: usage.input + usage.output },
    };
    return taskInfo(id, { agent, model, depth, status: 'completed', result });
  });
  return usageReport({ find: async () => undefined, history: async () => ({ tasks }) });
}
