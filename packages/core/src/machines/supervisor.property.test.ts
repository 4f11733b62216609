import fc from 'fast-check';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import type { ModelResponse } from '../model/types.js';
import { createRuntime } from '../runtime/create-runtime.js';
import { manualClock } from '../testing/manual-clock.js';
import { scriptedModel } from '../testing/scripted-model.js';
import { defineTool } from '../tools/define-tool.js';

type Command =
  | { kind: 'spawn'; session: number; writes: boolean }
  | { kind: 'finish'; pick: number }
  | { kind: 'fail'; pick: number }
  | { kind: 'cancel'; pick: number }
  | { kind: 'cancelSession'; session: number }
  | { kind: 'approve'; pick: number }
  | { kind: 'deny'; pick: number };

const command: fc.Arbitrary<Command> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({ kind: fc.constant('spawn' as const), session: fc.nat(2), writes: fc.boolean() }),
  },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('finish' as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('fail' as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('cancel' as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('cancelSession' as const), session: fc.nat(2) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('approve' as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('deny' as const), pick: fc.nat() }) },
);

const flush = async () => {
  for (let index = 0; index < 30; index++) await Promise.resolve();
};

describe('supervisor invariants (property)', () => {
  it('running ≤ maxConcurrent, FIFO start order, every task ends exactly once, none lost', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 4 }),
        fc.array(command, { minLength: 1, maxLength: 60 }),
        async (maxConcurrent, commands) => {
          // Each model call waits for the test to answer it.
          const pending = new Map<
            string,
            { resolve: (response: ModelResponse) => void; reject: (error: Error) => void }
          >();
          const model = scriptedModel((request) => {
            const taskId = request.taskId!;
            return new Promise((resolve, reject) =>
              pending.set(taskId, { resolve: resolve as never, reject }),
            );
          });
          const save = defineTool({
            name: 'save',
            description: 's',
            access: 'write',
            input: v.object({}),
            execute: () => 'saved',
          });
          const runtime = createRuntime({
            model,
            tools: [save],
            agents: [{ name: 'w', description: 'x', systemPrompt: 'x' }],
            limits: { maxConcurrent, maxTurns: 3 },
            approval: 'ask',
            clock: manualClock(),
          });
          const spawned: string[] = [];
          const wantsWrite = new Map<string, boolean>();
          const started: string[] = [];
          const ended = new Map<string, number>();
          let running = 0;
          let maxRunning = 0;
          runtime.on('task.started', (event) => {
            started.push(event.taskId);
            running++;
            maxRunning = Math.max(maxRunning, running);
          });
          for (const name of ['task.completed', 'task.failed', 'task.cancelled'] as const) {
            runtime.on(name, (event) => {
              ended.set(event.taskId, (ended.get(event.taskId) ?? 0) + 1);
              if (started.includes(event.taskId)) running--;
            });
          }
          const results = new Map<string, Promise<unknown>>();
          const pick = <T>(items: T[], index: number) =>
            items.length ? items[index % items.length] : undefined;

          for (const step of commands) {
            switch (step.kind) {
              case 'spawn': {
                const handle = runtime.spawn({ agent: 'w', prompt: 'p', sessionKey: `s${step.session}` });
                spawned.push(handle.id);
                wantsWrite.set(handle.id, step.writes);
                results.set(handle.id, handle.result);
                break;
              }
              case 'finish':
              case 'fail': {
                const taskId = pick([...pending.keys()], step.pick);
                if (!taskId) break;
                const call = pending.get(taskId)!;
                pending.delete(taskId);
                if (step.kind === 'fail') call.reject(new Error('model down'));
                else if (wantsWrite.get(taskId)) {
                  wantsWrite.set(taskId, false);
                  call.resolve({
                    content: [{ type: 'tool_use', id: `w-${taskId}`, name: 'save', input: {} }],
                    usage: { input: 1, output: 1 },
                  });
                } else
                  call.resolve({ content: [{ type: 'text', text: 'done' }], usage: { input: 1, output: 1 } });
                break;
              }
              case 'cancel': {
                const taskId = pick(spawned, step.pick);
                if (taskId) runtime.cancel(taskId);
                break;
              }
              case 'cancelSession':
                runtime.cancelSession(`s${step.session}`);
                break;
              case 'approve':
              case 'deny': {
                const approval = pick(runtime.pendingApprovals(), step.pick);
                if (!approval) break;
                if (step.kind === 'approve') runtime.approve(approval.id);
                else runtime.deny(approval.id, 'no');
                break;
              }
            }
            await flush();
            const live = runtime.list({ status: ['running', 'awaitingApproval'] }).length;
            expect(live).toBeLessThanOrEqual(maxConcurrent);
          }
          // Drain: cancel everything still going.
          for (const id of spawned) runtime.cancel(id);
          await flush();
          await Promise.all(results.values());

          expect(maxRunning).toBeLessThanOrEqual(maxConcurrent);
          // FIFO: tasks start in the order they were submitted.
          const order = started.map((id) => spawned.indexOf(id));
          expect(order).toEqual([...order].sort((a, b) => a - b));
          // Every task ended exactly once, none lost.
          for (const id of spawned) expect(ended.get(id)).toBe(1);
          expect(ended.size).toBe(spawned.length);
          await runtime.shutdown();
        },
      ),
      { numRuns: 150 },
    );
  });
});
