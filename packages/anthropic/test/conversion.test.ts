import type { Message as ApiMessage } from '@anthropic-ai/sdk/resources/messages';
import type { ContentBlock, Message, ModelRequest } from '@troupe/core';
import { describe, expect, it } from 'vitest';
import { validateMessagesRequest } from '../../../test/fake-anthropic/index.js';
import { fromMessage, fromStopReason, toMessageParams, toRequestParams } from '../src/index.js';

const settings = {
  model: 'claude-test-1',
  defaultMaxTokens: 4096,
  cache: { system: true, tools: true, messages: true },
  thinkingBudget: undefined,
};

function apiMessage(content: unknown[], overrides: Record<string, unknown> = {}): ApiMessage {
  return {
    id: 'msg_1',
    type: 'message',
    role: 'assistant',
    model: 'claude-test-1-20250101',
    content,
    stop_reason: 'end_turn',
    stop_sequence: null,
    usage: {
      input_tokens: 10,
      output_tokens: 5,
      cache_read_input_tokens: null,
      cache_creation_input_tokens: 3,
    },
    ...overrides,
  } as unknown as ApiMessage;
}

describe('troupe → Messages API', () => {
  it('converts every block kind and keeps tool results, errors and signatures', () => {
    const assistant: Message = {
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'Look at a.ts', signature: 'sig' },
        { type: 'text', text: 'Reading.' },
        { type: 'tool_use', id: 'toolu_1', name: 'read', input: { path: 'a.ts' } },
      ],
    };
    const failedResult: Message = {
      role: 'user',
      content: [
        {
          type: 'tool_result',
          tool_use_id: 'toolu_1',
          content: [{ type: 'text', text: 'nope' }],
          is_error: true,
        },
      ],
    };
    const messages: Message[] = [{ role: 'user', content: 'Find the bug.' }, assistant, failedResult];
    // A string turns into one text block; the blocks come through as they are.
    expect(toMessageParams(messages)).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Find the bug.' }] },
      assistant,
      failedResult,
    ]);
  });

  it('sends images a tool returned as image blocks of the tool result', () => {
    const image = { type: 'base64' as const, media_type: 'image/png' as const, data: 'iVBORw0KGgo=' };
    const result: Message = {
      role: 'user',
      content: [
        {
          type: 'tool_result',
          tool_use_id: 'toolu_1',
          content: [
            { type: 'text', text: 'The page:' },
            { type: 'image', source: image },
          ],
        },
      ],
    };
    const messages: Message[] = [
      { role: 'user', content: 'Take a screenshot.' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'shot', input: {} }] },
      result,
    ];
    const params = toMessageParams(messages);
    // The text and the image come through as they are, in order.
    expect(params[2]).toEqual(result);
    const tools = [{ name: 'shot', description: 'Takes a screenshot.', input_schema: { type: 'object' } }];
    const body = { model: 'claude-test-1', max_tokens: 100, tools, messages: params };
    expect(validateMessagesRequest(body)).toEqual([]);
    const broken = structuredClone(body);
    (broken.messages[2]!.content as any)[0].content[1].source.media_type = 'image/bmp';
    expect(validateMessagesRequest(broken).join('\n')).toMatch(/media_type/);
  });

  it('normalises what the API would reject', () => {
    const messages: Message[] = [
      { role: 'user', content: 'Start.' },
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'unsigned, from a scripted model' },
          { type: 'text', text: '' },
          { type: 'tool_use', id: 'toolu_1', name: 'read', input: null },
        ],
      },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: '' }] },
      { role: 'user', content: '' },
      { role: 'user', content: [{ type: 'text', text: 'Background task finished.' }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'late' }] },
      { role: 'assistant', content: 'Prefill with trailing space ' },
    ];
    expect(toMessageParams(messages)).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Start.' }] },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'read', input: {} }] },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_1' },
          { type: 'tool_result', tool_use_id: 'toolu_1', content: 'late' },
          { type: 'text', text: 'Background task finished.' },
        ],
      },
      { role: 'assistant', content: [{ type: 'text', text: 'Prefill with trailing space' }] },
    ]);
  });

  it('places at most three cache breakpoints: system, last tool, last message block', () => {
    const request: ModelRequest = {
      model: 'x',
      system: 'System prompt.',
      messages: [{ role: 'user', content: 'Hi' }],
      tools: [
        { name: 'a', description: 'A', input_schema: { properties: {} } },
        { name: 'b', description: 'B', input_schema: { type: 'object' } },
      ],
      maxTokens: 0,
    };
    const params = toRequestParams(request, settings);
    expect(params.max_tokens).toBe(4096);
    expect(params.system).toEqual([
      { type: 'text', text: 'System prompt.', cache_control: { type: 'ephemeral' } },
    ]);
    expect(params.tools).toEqual([
      { name: 'a', description: 'A', input_schema: { type: 'object', properties: {} } },
      { name: 'b', description: 'B', input_schema: { type: 'object' }, cache_control: { type: 'ephemeral' } },
    ]);
    expect(params.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Hi', cache_control: { type: 'ephemeral' } }] },
    ]);
    const off = toRequestParams(request, {
      ...settings,
      cache: { system: false, tools: false, messages: false },
    });
    expect(JSON.stringify(off)).not.toContain('cache_control');
    expect(toRequestParams({ ...request, system: '  ', tools: [] }, settings)).not.toHaveProperty('system');
  });

  it('builds requests the fake API accepts for a range of conversations', () => {
    const tool = { name: 'grep', description: 'Search', input_schema: { type: 'object' } };
    const conversations: Message[][] = [
      [{ role: 'user', content: 'one' }],
      [
        { role: 'user', content: 'two' },
        {
          role: 'assistant',
          content: [{ type: 'tool_use', id: 'toolu_x', name: 'grep', input: { q: 'a' } }],
        },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_x', content: 'found' }] },
        { role: 'user', content: 'announcement appended by the runtime' },
      ],
      [
        { role: 'user', content: 'three' },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'hm' },
            { type: 'text', text: 'Sure.' },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'again' },
            { type: 'text', text: '' },
          ],
        },
      ],
    ];
    for (const messages of conversations) {
      const params = toRequestParams(
        { model: 'x', system: 'S', messages, tools: [tool], maxTokens: 100 },
        settings,
      );
      expect(validateMessagesRequest(params)).toEqual([]);
    }
  });
});

describe('Messages API → troupe', () => {
  it('keeps text, thinking with signature and tool calls; drops blocks troupe does not model', () => {
    const response = fromMessage(
      apiMessage(
        [
          { type: 'thinking', thinking: 'hmm', signature: 'sig-9' },
          { type: 'redacted_thinking', data: 'opaque' },
          { type: 'text', text: 'Answer', citations: null },
          { type: 'tool_use', id: 'toolu_9', name: 'read', input: { path: 'x' } },
          { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: {} },
        ],
        { stop_reason: 'tool_use' },
      ),
    );
    expect(response).toEqual({
      content: [
        { type: 'thinking', thinking: 'hmm', signature: 'sig-9' },
        { type: 'text', text: 'Answer' },
        { type: 'tool_use', id: 'toolu_9', name: 'read', input: { path: 'x' } },
      ],
      stopReason: 'tool_use',
      usage: { input: 13, output: 5, cacheRead: 0, cacheWrite: 3 },
      model: 'claude-test-1-20250101',
    });
  });

  it('maps stop reasons, counting a full context window as max_tokens', () => {
    expect(fromStopReason('model_context_window_exceeded')).toBe('max_tokens');
    expect(fromStopReason('pause_turn')).toBe('pause_turn');
    expect(fromStopReason(null)).toBeUndefined();
  });

  it('round-trips: a response sent back as history equals what the API returned', () => {
    const apiContent = [
      { type: 'thinking', thinking: 'plan', signature: 'sig-2' },
      { type: 'text', text: 'Let me look.' },
      { type: 'tool_use', id: 'toolu_2', name: 'read', input: { path: 'b.ts', lines: [1, 2] } },
    ];
    const content: ContentBlock[] = fromMessage(apiMessage(apiContent)).content;
    const [, assistant] = toMessageParams([
      { role: 'user', content: 'go' },
      { role: 'assistant', content },
    ]);
    expect(assistant).toEqual({ role: 'assistant', content: apiContent });
  });
});
