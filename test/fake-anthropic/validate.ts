// Checks a `POST /v1/messages` body the way the real API does, so bugs in message building fail
// tests instead of production calls. Messages follow the API's `path: problem` style.

import { cacheTtlOrderIssue } from './cache-ttl-order.js';
import { checkToolPairing } from './tool-pairing.js';

const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const TOOL_USE_ID = /^[a-zA-Z0-9_-]+$/;
const MAX_CACHE_BREAKPOINTS = 4;
const TOP_LEVEL_FIELDS = new Set([
  'model',
  'messages',
  'max_tokens',
  'cache_control',
  'container',
  'context_management',
  'diagnostics',
  'inference_geo',
  'mcp_servers',
  'metadata',
  'output_config',
  'service_tier',
  'speed',
  'stop_sequences',
  'stream',
  'system',
  'temperature',
  'thinking',
  'tool_choice',
  'tools',
  'top_k',
  'top_p',
  'user_profile_id',
  'workspace_id',
]);

type Issues = string[];

function isObject(value: unknown): value is Record<string, any> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function checkCacheControl(value: unknown, path: string, issues: Issues): number {
  if (value === undefined || value === null) return 0;
  if (!isObject(value) || value.type !== 'ephemeral')
    issues.push(`${path}.cache_control: Input should be {"type": "ephemeral"}`);
  else if (value.ttl !== undefined && value.ttl !== '5m' && value.ttl !== '1h')
    issues.push(`${path}.cache_control.ttl: Input should be '5m' or '1h'`);
  return 1;
}

function checkTextBlock(block: Record<string, any>, path: string, issues: Issues): void {
  if (typeof block.text !== 'string') issues.push(`${path}.text: Field required (a string)`);
  else if (block.text.length === 0) issues.push(`${path}: text content blocks must be non-empty`);
  else if (block.cache_control && block.text.trim() === '')
    issues.push(`${path}: cache_control cannot be set for empty text blocks`);
}

function checkToolResultContent(content: unknown, path: string, issues: Issues): void {
  if (content === undefined || typeof content === 'string') return;
  if (!Array.isArray(content)) {
    issues.push(`${path}.content: Input should be a string or a list of content blocks`);
    return;
  }
  content.forEach((inner, i) => {
    if (!isObject(inner) || (inner.type !== 'text' && inner.type !== 'image' && inner.type !== 'document'))
      issues.push(`${path}.content.${i}: tool_result content blocks must be text, image or document`);
    else if (inner.type === 'text') checkTextBlock(inner, `${path}.content.${i}`, issues);
    else if (inner.type === 'image') checkImageBlock(inner, `${path}.content.${i}`, issues);
  });
}

const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'];

function checkImageBlock(block: Record<string, any>, path: string, issues: Issues): void {
  const source = block.source;
  if (!isObject(source) || (source.type !== 'base64' && source.type !== 'url'))
    issues.push(`${path}.source: Input should be a base64 or url image source`);
  else if (source.type === 'base64') {
    if (!IMAGE_TYPES.includes(source.media_type as string))
      issues.push(
        `${path}.source.media_type: Input should be ${IMAGE_TYPES.map((type) => `'${type}'`).join(', ')}`,
      );
    if (typeof source.data !== 'string' || !/^[A-Za-z0-9+/]*={0,2}$/.test(source.data))
      issues.push(`${path}.source.data: Input should be base64 data`);
  }
}

/** Checks one content block; returns the number of cache breakpoints it carries. */
function checkBlock(block: unknown, role: string, path: string, issues: Issues): number {
  if (!isObject(block) || typeof block.type !== 'string') {
    issues.push(`${path}: Input should be a content block object with a "type"`);
    return 0;
  }
  switch (block.type) {
    case 'text':
      checkTextBlock(block, path, issues);
      break;
    case 'thinking':
    case 'redacted_thinking':
      if (role !== 'assistant')
        issues.push(`${path}: ${block.type} blocks may only appear in assistant messages`);
      if (block.type === 'thinking') {
        if (typeof block.thinking !== 'string') issues.push(`${path}.thinking: Field required`);
        if (typeof block.signature !== 'string' || block.signature === '')
          issues.push(`${path}.signature: Field required`);
        if (block.cache_control) issues.push(`${path}: cache_control cannot be set on thinking blocks`);
      } else if (typeof block.data !== 'string') issues.push(`${path}.data: Field required`);
      break;
    case 'tool_use':
      if (role !== 'assistant') issues.push(`${path}: tool_use blocks may only appear in assistant messages`);
      if (typeof block.id !== 'string' || !TOOL_USE_ID.test(block.id))
        issues.push(`${path}.id: String should match pattern '^[a-zA-Z0-9_-]+$'`);
      if (typeof block.name !== 'string' || !TOOL_NAME.test(block.name))
        issues.push(`${path}.name: String should match pattern '^[a-zA-Z0-9_-]{1,64}$'`);
      if (!isObject(block.input)) issues.push(`${path}.input: Input should be a valid dictionary`);
      break;
    case 'tool_result':
      if (role !== 'user') issues.push(`${path}: tool_result blocks may only appear in user messages`);
      if (typeof block.tool_use_id !== 'string' || !TOOL_USE_ID.test(block.tool_use_id))
        issues.push(`${path}.tool_use_id: String should match pattern '^[a-zA-Z0-9_-]+$'`);
      if (block.is_error !== undefined && typeof block.is_error !== 'boolean')
        issues.push(`${path}.is_error: Input should be a valid boolean`);
      checkToolResultContent(block.content, path, issues);
      break;
    case 'image':
    case 'document':
      if (!isObject(block.source)) issues.push(`${path}.source: Field required`);
      break;
    default:
      issues.push(`${path}.type: Input tag '${block.type}' is not a known content block type`);
  }
  return checkCacheControl(block.cache_control, path, issues);
}

function checkMessages(value: unknown, issues: Issues): number {
  if (!Array.isArray(value)) {
    issues.push('messages: Field required (a list of messages)');
    return 0;
  }
  if (value.length === 0) issues.push('messages: at least one message is required');
  let breakpoints = 0;
  const valid: Record<string, any>[] = [];
  value.forEach((message, index) => {
    const path = `messages.${index}`;
    if (!isObject(message)) {
      issues.push(`${path}: Input should be a message object`);
      return;
    }
    valid.push(message);
    const role = message.role;
    if (role !== 'user' && role !== 'assistant') {
      issues.push(`${path}.role: Input should be 'user' or 'assistant'`);
      return;
    }
    if (index === 0 && role !== 'user')
      issues.push('messages.0.role: first message must use the "user" role');
    const previous = value[index - 1];
    if (index > 0 && isObject(previous) && previous.role === role)
      issues.push(
        `messages: roles must alternate between "user" and "assistant", but found multiple "${role}" roles in a row (messages ${index - 1} and ${index})`,
      );
    if (typeof message.content === 'string') {
      if (message.content.length === 0) issues.push(`${path}: user messages must have non-empty content`);
    } else if (Array.isArray(message.content)) {
      if (message.content.length === 0)
        issues.push(`${path}.content: all messages must have non-empty content`);
      message.content.forEach((block: unknown, i: number) => {
        breakpoints += checkBlock(block, role, `${path}.content.${i}`, issues);
      });
    } else issues.push(`${path}.content: Field required (a string or a list of content blocks)`);
  });
  if (valid.length === value.length) checkToolPairing(valid, issues);
  const last = value.at(-1);
  if (isObject(last) && last.role === 'assistant' && Array.isArray(last.content)) {
    const final = last.content.at(-1);
    if (isObject(final) && final.type === 'text' && typeof final.text === 'string' && /\s$/.test(final.text))
      issues.push(
        `messages.${value.length - 1}: final assistant content cannot end with trailing whitespace`,
      );
  }
  return breakpoints;
}

function checkSystem(value: unknown, issues: Issues): number {
  if (value === undefined || typeof value === 'string') return 0;
  if (!Array.isArray(value)) {
    issues.push('system: Input should be a string or a list of text blocks');
    return 0;
  }
  let breakpoints = 0;
  value.forEach((block, i) => {
    if (!isObject(block) || block.type !== 'text') issues.push(`system.${i}: Input should be a text block`);
    else {
      checkTextBlock(block, `system.${i}`, issues);
      breakpoints += checkCacheControl(block.cache_control, `system.${i}`, issues);
    }
  });
  return breakpoints;
}

function checkTools(value: unknown, issues: Issues): number {
  if (value === undefined) return 0;
  if (!Array.isArray(value)) {
    issues.push('tools: Input should be a valid list');
    return 0;
  }
  let breakpoints = 0;
  const names = new Set<string>();
  value.forEach((tool, i) => {
    const path = `tools.${i}`;
    if (!isObject(tool)) {
      issues.push(`${path}: Input should be a tool object`);
      return;
    }
    if (tool.type !== undefined && tool.type !== null && tool.type !== 'custom') return; // server tools
    if (typeof tool.name !== 'string' || !TOOL_NAME.test(tool.name))
      issues.push(`${path}.name: String should match pattern '^[a-zA-Z0-9_-]{1,64}$'`);
    else if (names.has(tool.name))
      issues.push(`tools: Tool names must be unique (\`${tool.name}\` is repeated)`);
    else names.add(tool.name);
    if (tool.description !== undefined && typeof tool.description !== 'string')
      issues.push(`${path}.description: Input should be a valid string`);
    if (!isObject(tool.input_schema)) issues.push(`${path}.input_schema: Field required`);
    else if (tool.input_schema.type !== 'object')
      issues.push(`${path}.input_schema.type: Input should be 'object'`);
    breakpoints += checkCacheControl(tool.cache_control, path, issues);
  });
  return breakpoints;
}

function checkThinking(value: unknown, maxTokens: unknown, issues: Issues): void {
  if (value === undefined) return;
  if (!isObject(value)) {
    issues.push('thinking: Input should be an object');
    return;
  }
  if (value.type === 'enabled') {
    const budget = value.budget_tokens;
    if (!Number.isInteger(budget) || budget < 1024)
      issues.push('thinking.enabled.budget_tokens: Input should be greater than or equal to 1024');
    else if (typeof maxTokens === 'number' && budget >= maxTokens)
      issues.push('`max_tokens` must be greater than `thinking.budget_tokens`');
  } else if (!['disabled', 'adaptive', 'between_tools'].includes(String(value.type)))
    issues.push(
      `thinking.type: Input tag '${String(value.type)}' is not one of 'enabled', 'disabled', 'adaptive'`,
    );
}

function hasTools(tools: unknown): boolean {
  return Array.isArray(tools) && tools.length > 0;
}

// The real API refuses a conversation holding tool calls or results when the request has no tools.
function hasToolBlocks(messages: unknown): boolean {
  if (!Array.isArray(messages)) return false;
  return messages.some(
    (message) =>
      isObject(message) &&
      Array.isArray(message.content) &&
      message.content.some(
        (block: unknown) => isObject(block) && (block.type === 'tool_use' || block.type === 'tool_result'),
      ),
  );
}

/**
 * Validates a Messages API request body. Returns every problem found (empty when valid), each as
 * `path: what is wrong`, worded like the real API's `invalid_request_error` messages.
 */
export function validateMessagesRequest(body: unknown): string[] {
  const issues: Issues = [];
  if (!isObject(body)) return ['body: Input should be a JSON object'];
  for (const key of Object.keys(body))
    if (!TOP_LEVEL_FIELDS.has(key)) issues.push(`${key}: Extra inputs are not permitted`);
  if (typeof body.model !== 'string' || body.model === '') issues.push('model: Field required');
  if (body.max_tokens === undefined) issues.push('max_tokens: Field required');
  else if (!Number.isInteger(body.max_tokens) || body.max_tokens < 0)
    issues.push('max_tokens: Input should be a non-negative integer');
  if (body.stream !== undefined && typeof body.stream !== 'boolean')
    issues.push('stream: Input should be a valid boolean');
  let breakpoints = checkCacheControl(body.cache_control, 'body', issues);
  breakpoints += checkSystem(body.system, issues);
  breakpoints += checkTools(body.tools, issues);
  breakpoints += checkMessages(body.messages, issues);
  checkThinking(body.thinking, body.max_tokens, issues);
  if (!hasTools(body.tools) && hasToolBlocks(body.messages))
    issues.push('Requests which include `tool_use` or `tool_result` blocks must define tools.');
  if (breakpoints > MAX_CACHE_BREAKPOINTS)
    issues.push(
      `A maximum of ${MAX_CACHE_BREAKPOINTS} blocks with cache_control may be provided. Found ${breakpoints}.`,
    );
  const order = cacheTtlOrderIssue(body);
  if (order) issues.push(order);
  return issues;
}
