import { describe, expect, it } from 'vitest';
import type { InspectionEvent } from 'xstate';
import { scriptedModel, textReply } from '../testing/scripted-model.js';
import { createRuntime } from './create-runtime.js';
import { hang } from './test-fixtures.js';

describe("the supervisor's task.submitted event", () => {
  it('names the parent task of a nested task, so an inspector can place it under its parent', async () => {
    const submitted: Record<string, unknown>[] = [];
    const runtime = createRuntime({
      model: scriptedModel((request, { signal }) =>
        request.messages[0]?.content === 'lead' ? hang(signal) : textReply('child done'),
      ),
      agents: [{ name: 'lead', description: 'Leads.', systemPrompt: 'You lead.' }],
      limits: { maxDepth: 2 },
      inspect: (event: InspectionEvent) => {
        if (event.type === '@xstate.event' && event.event.type === 'task.submitted')
          submitted.push((event.event as unknown as { task: Record<string, unknown> }).task);
      },
    });
    const lead = runtime.spawn({ agent: 'lead', prompt: 'lead' });
    const child = runtime.spawn({ agent: 'lead', prompt: 'child', parentTaskId: lead.id });
    await child.result;
    expect(submitted.map((task) => [task.taskId, task.parentTaskId])).toEqual([
      [lead.id, undefined],
      [child.id, lead.id],
    ]);
    expect('parentTaskId' in submitted[0]!).toBe(false);
    await runtime.shutdown();
  });
});
