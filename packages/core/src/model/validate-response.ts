import { describeThrown, toPlainJson } from '../persistence/plain-json.js';
import { DEFAULT_INPUT_BOUNDS, type InputBounds } from '../tools/bound-input.js';
import { capModelText, MAX_MODEL_TEXT_CHARS } from './cap-model-text.js';
import { IMAGE_CHARS_ESTIMATE } from './tool-result-content.js';
import type { ContentBlock, Message, ModelRequest, ModelResponse, StopReason, Usage } from './types.js';

/** A response that passed {@link validateModelResponse}, rebuilt from its known fields only. */
export interface ValidResponse {
  ok: true;
  response: ModelResponse;
  /** The reported usage was missing or invalid; `response.usage` is an estimate. */
  usageEstimated: boolean;
  /**
   * `tool_use` ids whose input was refused (it was replaced by `{}`): past the bounds, or not
   * plain JSON (a BigInt, a function, a symbol, a cycle, a getter that throws), with the reason.
   */
  refusedInputs: Map<string, RefusedInput>;
  /** Text and thinking blocks cut to `MAX_MODEL_TEXT_CHARS`: how many characters were dropped in all. */
  textCut: number;
}

/** Why a tool input was refused: `bounds` (too large or deep) or `type` (not plain JSON). */
export interface RefusedInput {
  kind: 'bounds' | 'type';
  reason: string;
}

/** Why a response was refused. */
export interface InvalidResponse {
  ok: false;
  message: string;
}

/** Most characters of a `tool_use` id or tool name (a signature may be as long as a text block). */
const MAX_ID_CHARS = 1_000;

/** Most content blocks of one model response; a response with more is refused. */
export const MAX_RESPONSE_BLOCKS = 10_000;

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

interface Read {
  bounds: InputBounds;
  refused: Map<string, RefusedInput>;
  /** Characters cut from text and thinking blocks so far. */
  cut: number;
}

function cappedText(text: string, read: Read): string {
  const capped = capModelText(text);
  read.cut += text.length - capped.kept;
  return capped.text;
}

function validBlock(block: unknown, index: number, read: Read) {
  const where = `content[${index}]`;
  if (!isRecord(block)) return `${where} is not an object`;
  switch (block.type) {
    case 'text': {
      const text = block.text;
      return typeof text === 'string'
        ? { type: 'text' as const, text: cappedText(text, read) }
        : `${where}.text is not a string`;
    }
    case 'thinking': {
      const text = block.thinking;
      if (typeof text !== 'string') return `${where}.thinking is not a string`;
      const thinking: ContentBlock = { type: 'thinking', thinking: cappedText(text, read) };
      const signature = block.signature;
      if (typeof signature === 'string' && signature.length > MAX_MODEL_TEXT_CHARS)
        return `${where}.signature is longer than ${MAX_MODEL_TEXT_CHARS.toLocaleString('en-US')} characters`;
      if (typeof signature === 'string') thinking.signature = signature;
      return thinking;
    }
    case 'tool_use': {
      const { id, name } = block;
      if (typeof id !== 'string' || id.length === 0) return `${where}.id is not a non-empty string`;
      if (typeof name !== 'string') return `${where}.name is not a string`;
      // An id or a name is sent back with every later request: never megabytes of it.
      if (id.length > MAX_ID_CHARS)
        return `${where}.id is longer than ${MAX_ID_CHARS.toLocaleString('en-US')} characters`;
      if (name.length > MAX_ID_CHARS)
        return `${where}.name is longer than ${MAX_ID_CHARS.toLocaleString('en-US')} characters`;
      // The input is journaled and fed to the machine as plain JSON (a file store writes it).
      const input = toPlainJson(block.input, 'input', read.bounds);
      if (!input.ok) {
        read.refused.set(id, { kind: input.kind === 'bounds' ? 'bounds' : 'type', reason: input.reason });
        return { type: 'tool_use' as const, id, name, input: {} };
      }
      return { type: 'tool_use' as const, id, name, input: input.value };
    }
    default:
      return `${where} has an unknown type ${JSON.stringify(String(block.type)).slice(0, 60)}`;
  }
}

/**
 * Checks what a `ModelAdapter` returned before anything else reads it: a response must be an
 * object with a `content` array of text, thinking and tool_use blocks. The response is rebuilt
 * from those known fields (nothing else reaches the journal); a tool input beyond `bounds` or not
 * plain JSON is replaced by `{}` and reported in `refusedInputs` (the call is answered with an
 * error); a text or thinking block past `MAX_MODEL_TEXT_CHARS` is cut, with a note; a response of
 * more than `MAX_RESPONSE_BLOCKS` blocks is refused; usage that is
 * missing, negative or not a finite number is estimated from the sizes of the request and the
 * response. Never throws: a response whose getters or proxy traps throw is refused.
 */
export function validateModelResponse(
  value: unknown,
  request: ModelRequest,
  bounds: InputBounds = DEFAULT_INPUT_BOUNDS,
): ValidResponse | InvalidResponse {
  try {
    return readResponse(value, request, bounds);
  } catch (error) {
    return {
      ok: false,
      message: `Malformed model response: it could not be read: ${describeThrown(error)}.`,
    };
  }
}

function readResponse(
  value: unknown,
  request: ModelRequest,
  bounds: InputBounds,
): ValidResponse | InvalidResponse {
  if (!isRecord(value)) {
    return {
      ok: false,
      message: `Malformed model response: expected an object, got ${value === null ? 'null' : typeof value}.`,
    };
  }
  const blocks = value.content;
  if (!Array.isArray(blocks)) {
    const got = blocks === null ? 'null' : typeof blocks;
    return {
      ok: false,
      message: `Malformed model response: content must be an array of blocks, got ${got}.`,
    };
  }
  const count = blocks.length;
  if (count > MAX_RESPONSE_BLOCKS)
    return {
      ok: false,
      message: `Malformed model response: content has ${count.toLocaleString('en-US')} blocks, more than ${MAX_RESPONSE_BLOCKS.toLocaleString('en-US')}.`,
    };
  const content: ContentBlock[] = [];
  const read: Read = { bounds, refused: new Map(), cut: 0 };
  for (let index = 0; index < count; index++) {
    const block = validBlock(blocks[index], index, read);
    if (typeof block === 'string') return { ok: false, message: `Malformed model response: ${block}.` };
    content.push(block);
  }
  // Each field is read once: a getter may answer differently the second time.
  const reported = value.usage;
  const { input, output, cacheRead, cacheWrite, cacheWrite1h } = isRecord(reported) ? reported : {};
  const usageValid = isCount(input) && isCount(output);
  const usage: Usage = usageValid ? { input, output } : estimateUsage(request, content);
  if (usageValid && isCount(cacheRead)) usage.cacheRead = cacheRead;
  if (usageValid && isCount(cacheWrite)) usage.cacheWrite = cacheWrite;
  if (usageValid && isCount(cacheWrite) && isCount(cacheWrite1h) && cacheWrite1h <= cacheWrite)
    usage.cacheWrite1h = cacheWrite1h;
  const response: ModelResponse = { content, usage };
  const { stopReason, model } = value;
  if (typeof stopReason === 'string' && STOP_REASONS.has(stopReason))
    response.stopReason = stopReason as StopReason;
  if (typeof model === 'string') response.model = model.slice(0, 200);
  return { ok: true, response, usageEstimated: !usageValid, refusedInputs: read.refused, textCut: read.cut };
}
