import { DEFAULT_INPUT_BOUNDS, exceedsInputBounds, type InputBounds } from '../tools/bound-input.js';
import { IMAGE_CHARS_ESTIMATE } from './tool-result-content.js';
import type { ContentBlock, Message, ModelRequest, ModelResponse, StopReason, Usage } from './types.js';

/** A response that passed {@link validateModelResponse}, rebuilt from its known fields only. */
export interface ValidResponse {
  ok: true;
  response: ModelResponse;
  /** The reported usage was missing or invalid; `response.usage` is an estimate. */
  usageEstimated: boolean;
  /** `tool_use` ids whose input exceeded the bounds (it was replaced by `{}`), with the reason. */
  oversizedInputs: Map<string, string>;
}

/** Why a response was refused. */
export interface InvalidResponse {
  ok: false;
  message: string;
}

const STOP_REASONS = new Set([
  'end_turn',
  'tool_use',
  'max_tokens',
  'stop_sequence',
  'pause_turn',
  'refusal',
]);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}

/** Characters of a message list, roughly what a model reads (for a usage estimate). */
function charsOf(messages: readonly Message[]): number {
  let chars = 0;
  for (const message of messages) {
    if (typeof message.content === 'string') {
      chars += message.content.length;
      continue;
    }
    for (const block of message.content) chars += charsOfBlock(block);
  }
  return chars;
}

function charsOfBlock(block: ContentBlock): number {
  switch (block.type) {
    case 'text':
      return block.text.length;
    case 'thinking':
      return block.thinking.length;
    case 'tool_use':
      return block.name.length + (JSON.stringify(block.input)?.length ?? 0);
    case 'tool_result':
      return typeof block.content === 'string'
        ? block.content.length
        : block.content.reduce(
            (sum, part) => sum + (part.type === 'image' ? IMAGE_CHARS_ESTIMATE : part.text.length),
            0,
          );
  }
}

/**
 * Estimates a call's usage from the size of its request and response: about four characters a
 * token, which is the usual rule of thumb for English and code. Used only when a model reports
 * no usable counts, so that a token budget still holds.
 */
export function estimateUsage(request: ModelRequest, content: readonly ContentBlock[]): Usage {
  let input = request.system.length + charsOf(request.messages);
  for (const tool of request.tools) input += tool.name.length + tool.description.length;
  let output = 0;
  for (const block of content) output += charsOfBlock(block);
  return { input: Math.ceil(input / 4) + 1, output: Math.ceil(output / 4) + 1 };
}

function validBlock(block: unknown, index: number, bounds: InputBounds, oversized: Map<string, string>) {
  const where = `content[${index}]`;
  if (!isRecord(block)) return `${where} is not an object`;
  switch (block.type) {
    case 'text':
      return typeof block.text === 'string'
        ? { type: 'text' as const, text: block.text }
        : `${where}.text is not a string`;
    case 'thinking': {
      if (typeof block.thinking !== 'string') return `${where}.thinking is not a string`;
      const thinking: ContentBlock = { type: 'thinking', thinking: block.thinking };
      if (typeof block.signature === 'string') thinking.signature = block.signature;
      return thinking;
    }
    case 'tool_use': {
      if (typeof block.id !== 'string' || block.id.length === 0)
        return `${where}.id is not a non-empty string`;
      if (typeof block.name !== 'string') return `${where}.name is not a string`;
      const tooBig = exceedsInputBounds(block.input, bounds);
      if (tooBig !== undefined) {
        oversized.set(block.id, tooBig);
        return { type: 'tool_use' as const, id: block.id, name: block.name, input: {} };
      }
      return { type: 'tool_use' as const, id: block.id, name: block.name, input: block.input };
    }
    default:
      return `${where} has an unknown type ${JSON.stringify(String(block.type)).slice(0, 60)}`;
  }
}

/**
 * Checks what a `ModelAdapter` returned before anything else reads it: a response must be an
 * object with a `content` array of text, thinking and tool_use blocks. The response is rebuilt
 * from those known fields (nothing else reaches the journal); a tool input beyond `bounds` is
 * replaced by `{}` and reported in `oversizedInputs` (the call is answered with an error); usage
 * that is missing, negative or not a finite number is estimated from the sizes of the request and
 * the response. Never throws.
 */
export function validateModelResponse(
  value: unknown,
  request: ModelRequest,
  bounds: InputBounds = DEFAULT_INPUT_BOUNDS,
): ValidResponse | InvalidResponse {
  if (!isRecord(value)) {
    return {
      ok: false,
      message: `Malformed model response: expected an object, got ${value === null ? 'null' : typeof value}.`,
    };
  }
  if (!Array.isArray(value.content)) {
    const got = value.content === null ? 'null' : typeof value.content;
    return {
      ok: false,
      message: `Malformed model response: content must be an array of blocks, got ${got}.`,
    };
  }
  const content: ContentBlock[] = [];
  const oversizedInputs = new Map<string, string>();
  for (let index = 0; index < value.content.length; index++) {
    const block = validBlock(value.content[index], index, bounds, oversizedInputs);
    if (typeof block === 'string') return { ok: false, message: `Malformed model response: ${block}.` };
    content.push(block);
  }
  const reported = value.usage;
  const usageValid = isRecord(reported) && isCount(reported.input) && isCount(reported.output);
  const usage: Usage = usageValid
    ? { input: reported.input as number, output: reported.output as number }
    : estimateUsage(request, content);
  if (usageValid && isCount(reported.cacheRead)) usage.cacheRead = reported.cacheRead;
  if (usageValid && isCount(reported.cacheWrite)) usage.cacheWrite = reported.cacheWrite;
  const response: ModelResponse = { content, usage };
  if (typeof value.stopReason === 'string' && STOP_REASONS.has(value.stopReason))
    response.stopReason = value.stopReason as StopReason;
  if (typeof value.model === 'string') response.model = value.model;
  return { ok: true, response, usageEstimated: !usageValid, oversizedInputs };
}
