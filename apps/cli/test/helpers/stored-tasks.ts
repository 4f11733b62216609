// Stored tasks written straight into a store, for tests of what the CLI reads from one (`tasks`,
// the demo's table), and the io those tests run a command with.
import { Readable } from 'node:stream';
import type { TaskSpec, TaskStatusRecord } from '@troupe/core';
import { finalRecord } from '@troupe/core/store';
import type { CliIo } from '../../src/io.js';

/** A task's spec as a store holds it: an `explore` task of session `s`, with `fields` over it. */
export function storedSpec(taskId: string, fields: Partial<TaskSpec> = {}): TaskSpec {
  return {
    taskId,
    agent: 'explore',
    description: `task ${taskId}`,
    prompt: 'look',
    sessionKey: 's',
    depth: 1,
    background: false,
    announce: false,
    model: 'm',
    system: '',
    tools: [],
    limits: { maxTurns: 10, tokenBudget: 1_000, timeoutMs: 60_000 },
    messages: [],
    createdAt: 1_000,
    ...fields,
  };
}

/** The final record of `spec`'s task completed at `at` with `output` (one turn, 100 tokens). */
export function completedRecord(
  spec: TaskSpec,
  at: number,
  fields: { output?: string; toolCalls?: number; durationMs?: number } = {},
): TaskStatusRecord {
  return finalRecord(
    {
      taskId: spec.taskId,
      agent: spec.agent,
      status: 'completed',
      terminateReason: 'GOAL',
      output: fields.output ?? 'done',
      turns: 1,
      toolCalls: fields.toolCalls ?? 0,
      durationMs: fields.durationMs ?? 50,
      model: 'm',
      usage: { input: 60, output: 40, total: 100 },
    },
    at,
  );
}

/** `store` with every method call counted by name, in the record `calls()` gives at the call. */
export function countingCalls<T extends object>(store: T, calls: () => Record<string, number>): T {
  return new Proxy(store, {
    get(target, name, receiver) {
      const value: unknown = Reflect.get(target, name, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        const counted = calls();
        counted[String(name)] = (counted[String(name)] ?? 0) + 1;
        return (value as (...args: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}

/**
 * The io of a command run in the test's process: stdin `input` (not a terminal), stdout and stderr
 * captured (read them with `output()`), no signal ever delivered.
 */
export function capturedIo(
  fields: Pick<CliIo, 'env' | 'cwd' | 'home' | 'script'>,
  input = '',
): { io: CliIo; output(): { stdout: string; stderr: string } } {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    ...fields,
    stdin: Readable.from([input]),
    stdout: {
      write(text: string) {
        stdout += text;
        return true;
      },
    },
    stderr: {
      write(text: string) {
        stderr += text;
        return true;
      },
    },
    onSignal: () => () => {},
  };
  return { io, output: () => ({ stdout, stderr }) };
}
