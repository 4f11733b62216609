import { describe, expect, it } from 'vitest';
import { validateMessagesRequest } from './validate.js';

const user = (content: unknown) => ({ role: 'user', content });
const assistant = (content: unknown) => ({ role: 'assistant', content });
const toolUse = (id: string, name = 'read') => ({ type: 'tool_use', id, name, input: {} });
const toolResult = (id: string) => ({ type: 'tool_result', tool_use_id: id, content: 'ok' });
const body = (fields: Record<string, unknown>) => ({ model: 'claude-x', max_tokens: 100, ...fields });

describe('validateMessagesRequest', () => {
  it('accepts a full, valid request', () => {
    const valid = body({
      stream: true,
      system: [{ type: 'text', text: 'sys', cache_control: { type: 'ephemeral' } }],
      tools: [
        {
          name: 'read',
          description: 'Read',
          input_schema: { type: 'object' },
          cache_control: { type: 'ephemeral', ttl: '1h' },
        },
      ],
      thinking: { type: 'enabled', budget_tokens: 1024 },
      max_tokens: 2048,
      messages: [
        user('hi'),
        assistant([
          { type: 'thinking', thinking: 't', signature: 's' },
          { type: 'text', text: 'reading' },
          toolUse('toolu_1'),
          toolUse('toolu_2'),
        ]),
        user([
          toolResult('toolu_2'),
          { ...toolResult('toolu_1'), is_error: true },
          { type: 'text', text: 'more' },
        ]),
        assistant('prefill'),
      ],
    });
    expect(validateMessagesRequest(valid)).toEqual([]);
  });

  it.each([
    ['a missing model', { model: undefined, messages: [user('x')] }, 'model: Field required'],
    ['a missing max_tokens', { max_tokens: undefined, messages: [user('x')] }, 'max_tokens: Field required'],
    [
      'an unknown top-level field',
      { messages: [user('x')], temprature: 1 },
      'temprature: Extra inputs are not permitted',
    ],
    ['no messages', { messages: [] }, 'at least one message'],
    ['a first assistant message', { messages: [assistant('x')] }, 'first message must use the "user" role'],
    ['two user messages in a row', { messages: [user('a'), user('b')] }, 'roles must alternate'],
    ['an empty string content', { messages: [user('')] }, 'non-empty content'],
    [
      'an empty text block',
      { messages: [user([{ type: 'text', text: '' }])] },
      'text content blocks must be non-empty',
    ],
    ['a bad role', { messages: [{ role: 'system', content: 'x' }] }, "Input should be 'user' or 'assistant'"],
    [
      'a tool_use without its result',
      { messages: [user('a'), assistant([toolUse('toolu_1')]), user('b')] },
      'without `tool_result` blocks immediately after: toolu_1',
    ],
    [
      'a tool_result after text',
      {
        messages: [
          user('a'),
          assistant([toolUse('toolu_1')]),
          user([{ type: 'text', text: 'x' }, toolResult('toolu_1')]),
        ],
      },
      'tool_result blocks must come first',
    ],
    [
      'a tool_result for an unknown id',
      { messages: [user([toolResult('toolu_9')])] },
      'unexpected `tool_use_id`',
    ],
    [
      'two results for one call',
      {
        messages: [
          user('a'),
          assistant([toolUse('toolu_1')]),
          user([toolResult('toolu_1'), toolResult('toolu_1')]),
        ],
      },
      'must have a single result',
    ],
    [
      'a bad tool name in a call',
      { messages: [user('a'), assistant([toolUse('toolu_1', 'read file')]), user([toolResult('toolu_1')])] },
      "name: String should match pattern '^[a-zA-Z0-9_-]{1,64}$'",
    ],
    [
      'a bad tool name in the tools list',
      { messages: [user('a')], tools: [{ name: 'x'.repeat(65), input_schema: { type: 'object' } }] },
      'tools.0.name: String should match pattern',
    ],
    [
      'duplicate tool names',
      { messages: [user('a')], tools: [1, 2].map(() => ({ name: 'dup', input_schema: { type: 'object' } })) },
      'Tool names must be unique',
    ],
    [
      'a tool schema that is not an object',
      { messages: [user('a')], tools: [{ name: 't', input_schema: { type: 'string' } }] },
      "input_schema.type: Input should be 'object'",
    ],
    [
      'a tool_use in a user message',
      { messages: [user([toolUse('toolu_1')])] },
      'tool_use blocks may only appear in assistant messages',
    ],
    [
      'unsigned thinking',
      { messages: [user('a'), assistant([{ type: 'thinking', thinking: 't' }])] },
      'signature: Field required',
    ],
    ['an unknown block type', { messages: [user([{ type: 'video' }])] }, "Input tag 'video'"],
    [
      'a non-object tool input',
      {
        messages: [
          user('a'),
          assistant([{ ...toolUse('toolu_1'), input: 'x' }]),
          user([toolResult('toolu_1')]),
        ],
      },
      'input: Input should be a valid dictionary',
    ],
    [
      'a bad is_error',
      { messages: [user('a'), assistant([toolUse('t1')]), user([{ ...toolResult('t1'), is_error: 'yes' }])] },
      'is_error',
    ],
    [
      'a trailing-space prefill',
      { messages: [user('a'), assistant([{ type: 'text', text: 'b ' }])] },
      'trailing whitespace',
    ],
    [
      'a bad cache_control',
      { messages: [user([{ type: 'text', text: 'a', cache_control: { type: 'forever' } }])] },
      'cache_control',
    ],
    [
      'five cache breakpoints',
      {
        system: [1, 2, 3].map(() => ({ type: 'text', text: 's', cache_control: { type: 'ephemeral' } })),
        messages: [
          user([1, 2].map(() => ({ type: 'text', text: 'a', cache_control: { type: 'ephemeral' } }))),
        ],
      },
      'A maximum of 4 blocks with cache_control',
    ],
    [
      'tool blocks in the conversation without tools',
      { messages: [user('a'), assistant([toolUse('toolu_1')]), user([toolResult('toolu_1')])] },
      'Requests which include `tool_use` or `tool_result` blocks must define tools.',
    ],
    [
      'a thinking budget at max_tokens',
      { messages: [user('a')], thinking: { type: 'enabled', budget_tokens: 2000 }, max_tokens: 2000 },
      'must be greater than `thinking.budget_tokens`',
    ],
  ])('rejects %s', (_name, fields, expected) => {
    const issues = validateMessagesRequest(body(fields));
    expect(issues.join('\n')).toContain(expected);
  });

  it('rejects a body that is not an object', () => {
    expect(validateMessagesRequest([])).toEqual(['body: Input should be a JSON object']);
  });
});
