import { describe, expect, it } from 'vitest';
import type { ToolResultBlock } from '../model/types.js';
import { textReply, toolReply } from '../testing/scripted-model.js';
import { fixtureRuntime } from './test-fixtures.js';

function lastResults(request: { messages: { role: string; content: unknown }[] }): ToolResultBlock[] {
  const last = request.messages.at(-1)!;
  return (last.content as ToolResultBlock[]).filter((block) => block.type === 'tool_result');
}

describe('tool isolation', () => {
  it('answers a hallucinated tool with an error result and runs nothing', async () => {
    const { runtime, model, calls } = fixtureRuntime([
      toolReply('delete_everything', { path: '/' }),
      textReply('ok'),
    ]);
    const result = await runtime.spawn({ agent: 'explore', prompt: 'x' }).result;
    expect(result.status).toBe('completed');
    const [answer] = lastResults(model.requests[1]!);
    expect(answer).toMatchObject({ is_error: true });
    expect(answer!.content).toMatch(/no tool named "delete_everything".*Available tools: boom, echo, wait/);
    expect(calls).toEqual([]);
  });

  it('refuses a real tool that is outside the agent registry', async () => {
    // `save` exists in the runtime but the explore agent's allow-list excludes it.
    const { runtime, model, calls } = fixtureRuntime([toolReply('save', { note: 'x' }), textReply('ok')]);
    await runtime.spawn({ agent: 'explore', prompt: 'x' }).result;
    expect(lastResults(model.requests[1]!)[0]).toMatchObject({ is_error: true });
    expect(calls).toEqual([]);
    expect(model.requests[0]!.tools.map((tool) => tool.name)).toEqual(['boom', 'echo', 'wait']);
  });

  it('refuses malformed tool input without running the tool', async () => {
    const { runtime, model, calls } = fixtureRuntime([toolReply('echo', { text: 42 }), textReply('ok')]);
    await runtime.spawn({ agent: 'explore', prompt: 'x' }).result;
    const [answer] = lastResults(model.requests[1]!);
    expect(answer).toMatchObject({ is_error: true });
    expect(answer!.content).toMatch(/invalid input for tool "echo": text: /);
    expect(calls).toEqual([]);
  });

  it('turns a throwing tool into an error result; the task goes on', async () => {
    const { runtime, model } = fixtureRuntime([toolReply('boom', {}), textReply('recovered')]);
    const result = await runtime.spawn({ agent: 'explore', prompt: 'x' }).result;
    expect(result).toMatchObject({ status: 'completed', output: 'recovered' });
    expect(lastResults(model.requests[1]!)[0]).toMatchObject({
      is_error: true,
      content: 'Error: tool "boom" failed: disk on fire',
    });
  });

  it('answers every call of a multi-call turn, in order', async () => {
    const { runtime, model, calls } = fixtureRuntime([
      {
        content: [
          { type: 'tool_use', id: 'a', name: 'echo', input: { text: '1' } },
          { type: 'tool_use', id: 'b', name: 'nope', input: {} },
          { type: 'tool_use', id: 'c', name: 'echo', input: { text: '3' } },
        ],
      },
      textReply('ok'),
    ]);
    await runtime.spawn({ agent: 'explore', prompt: 'x' }).result;
    expect(
      lastResults(model.requests[1]!).map((block) => [block.tool_use_id, block.is_error === true]),
    ).toEqual([
      ['a', false],
      ['b', true],
      ['c', false],
    ]);
    expect(calls.map((call) => call.input)).toEqual([{ text: '1' }, { text: '3' }]);
  });

  it('gives sub-agents no task tools when nesting is off (maxDepth 1)', async () => {
    const { runtime, model } = fixtureRuntime([textReply('ok')], { limits: { maxDepth: 1 } });
    await runtime.spawn({ agent: 'general-purpose', prompt: 'x' }).result;
    expect(model.requests[0]!.tools.map((tool) => tool.name)).toEqual([
      'boom',
      'echo',
      'save',
      'shell',
      'wait',
    ]);
  });
});
