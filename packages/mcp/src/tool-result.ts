import type { ImageMediaType, TextBlock, ToolResultContent } from '@troupe/core';
import { IMAGE_MEDIA_TYPES } from '@troupe/core/internal';
import { formatBytes } from './message-limit.js';

/** Default cap on the text an MCP tool returns to the model, in characters (as the Node tools). */
export const DEFAULT_MAX_RESULT_CHARS = 30_000;
/** Images one tool result may carry (the model API takes a limited number per request). */
const MAX_RESULT_IMAGES = 20;
/** Structured content nested deeper than this is not shown (a deeper value is a hostile one). */
const MAX_STRUCTURED_DEPTH = 1_000;
/** Structured content nested deeper than this is shown on one line (indentation would balloon). */
const MAX_INDENTED_DEPTH = 32;

/** The parts of an MCP `CallToolResult` troupe reads. */
export interface McpCallResult {
  content?: unknown[];
  structuredContent?: unknown;
  isError?: boolean;
}

const text = (value: string): TextBlock => ({ type: 'text', text: value });
const sizeOf = (base64: unknown) =>
  formatBytes(typeof base64 === 'string' ? Math.floor((base64.replace(/[\s=]/g, '').length * 3) / 4) : 0);
const label = (value: unknown, fallback: string) =>
  typeof value === 'string' && value !== '' ? value.slice(0, 200) : fallback;

/** The image format the first bytes show (PNG, JPEG, GIF, WebP), or undefined. */
function sniff(base64: string): ImageMediaType | undefined {
  let head: string;
  try {
    head = atob(base64.slice(0, 16));
  } catch {
    return undefined;
  }
  if (head.startsWith('\x89PNG\r\n\x1a\n')) return 'image/png';
  if (head.startsWith('\xff\xd8\xff')) return 'image/jpeg';
  if (head.startsWith('GIF87a') || head.startsWith('GIF89a')) return 'image/gif';
  if (head.startsWith('RIFF') && head.slice(8, 12) === 'WEBP') return 'image/webp';
  return undefined;
}

/**
 * An image block when `data` is base64 (whitespace dropped) of a PNG, JPEG, GIF or WebP image, as
 * its first bytes show (a wrong `mimeType` is corrected); otherwise a one-line note. Data the model
 * API would refuse never reaches it: one bad block would fail the task's next model call.
 */
function imageOf(mimeType: unknown, data: unknown, what: string): ToolResultContent {
  const declared = label(mimeType, 'unknown type').toLowerCase();
  const base64 = typeof data === 'string' ? data.replace(/\s+/g, '') : '';
  const padded = base64.length % 4 === 0 ? base64 : `${base64}${'='.repeat(4 - (base64.length % 4))}`;
  const valid = base64 !== '' && base64.length % 4 !== 1 && /^[A-Za-z0-9+/]+={0,2}$/.test(padded);
  const type = valid ? sniff(padded) : undefined;
  if (type) return { type: 'image', source: { type: 'base64', media_type: type, data: padded } };
  const why = IMAGE_MEDIA_TYPES.includes(declared as ImageMediaType)
    ? 'not a PNG, JPEG, GIF or WebP image, so not shown'
    : 'a format the model cannot see';
  return text(`[${what}: ${declared}, ${sizeOf(data)}; ${why}]`);
}

/** One MCP content item as blocks for the model. */
function describe(item: Record<string, unknown>): ToolResultContent[] {
  switch (item.type) {
    case 'text':
      return [text(typeof item.text === 'string' ? item.text : String(item.text ?? ''))];
    case 'image':
      return [imageOf(item.mimeType, item.data, 'image')];
    case 'audio':
      return [
        text(
          `[audio: ${label(item.mimeType, 'unknown type')}, ${sizeOf(item.data)}; not shown to the model]`,
        ),
      ];
    case 'resource_link': {
      const name = label(item.title, label(item.name, label(item.uri, 'unnamed')));
      const details = [item.mimeType, item.description].filter((part) => typeof part === 'string' && part);
      return [
        text(
          `[resource link: ${name} <${label(item.uri, '')}>${details.length ? ` (${details.join('; ')})` : ''}]`,
        ),
      ];
    }
    case 'resource': {
      const resource = (
        typeof item.resource === 'object' && item.resource !== null ? item.resource : {}
      ) as Record<string, unknown>;
      const header = `[resource <${label(resource.uri, '')}>${typeof resource.mimeType === 'string' && resource.mimeType ? ` ${label(resource.mimeType, '')}` : ''}]`;
      if (typeof resource.text === 'string') return [text(`${header}\n${resource.text}`)];
      if (typeof resource.blob === 'string' && sniff(resource.blob.replace(/\s+/g, '').slice(0, 16)))
        return [text(header), imageOf(resource.mimeType, resource.blob, 'resource')];
      return [text(`${header} binary, ${sizeOf(resource.blob)}; not shown to the model`)];
    }
    default:
      return [text(`[${label(item.type, 'untyped')} content not supported]`)];
  }
}

/** How deep `value` nests, counting no further than `limit + 1` (no recursion). */
function depthOf(value: unknown, limit: number): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!;
    if (typeof current !== 'object' || current === null) continue;
    deepest = Math.max(deepest, depth);
    if (deepest > limit) return deepest;
    for (const child of Object.values(current)) stack.push([child, depth + 1]);
  }
  return deepest;
}

/** Structured content as JSON text, or a note when it cannot be shown. */
function structured(value: unknown): TextBlock {
  const depth = depthOf(value, MAX_STRUCTURED_DEPTH);
  if (depth > MAX_STRUCTURED_DEPTH)
    return text(
      `[structured content nested more than ${MAX_STRUCTURED_DEPTH.toLocaleString('en-US')} levels deep; not shown]`,
    );
  try {
    return text(JSON.stringify(value, null, depth > MAX_INDENTED_DEPTH ? undefined : 2) ?? String(value));
  } catch (error) {
    return text(`[structured content that is not JSON (${(error as Error).message}); not shown]`);
  }
}

/** Joins neighbouring text blocks (one block per run of text) and keeps at most `maxImages` images. */
function compact(blocks: ToolResultContent[], maxImages: number): ToolResultContent[] {
  const joined: ToolResultContent[] = [];
  let images = 0;
  let dropped = 0;
  let run: string[] = [];
  const flush = () => {
    if (run.length > 0) joined.push(text(run.join('\n')));
    run = [];
  };
  for (const block of blocks) {
    if (block.type === 'text') run.push(block.text);
    else if (images < maxImages) {
      flush();
      joined.push(block);
      images++;
    } else dropped++;
  }
  if (dropped > 0) run.push(`[${dropped} more images not shown: at most ${maxImages} per result]`);
  flush();
  return joined;
}

/**
 * Maps an MCP tool result to blocks for the model: text as is; images (PNG, JPEG, GIF, WebP, also
 * as embedded resources; checked by their first bytes) as image blocks the model sees, at most
 * 20 (`MAX_RESULT_IMAGES`); resource links and embedded text resources with their URI; audio,
 * other image formats, data that is not an image and binary resources as a one-line note.
 * Structured content is used (as JSON) only when there is no content. Neighbouring text becomes
 * one block, cut to `maxChars` characters with a note saying how much was cut (images are bounded
 * by the runtime's cap on a stored tool result). Never throws, whatever `result` is.
 */
export function toContentBlocks(
  result: McpCallResult,
  maxChars = DEFAULT_MAX_RESULT_CHARS,
): ToolResultContent[] {
  const answer: McpCallResult = typeof result === 'object' && result !== null ? result : {};
  const items = Array.isArray(answer.content) ? answer.content : [];
  let blocks = items
    .filter((item): item is Record<string, unknown> => item !== null && typeof item === 'object')
    .flatMap(describe);
  if (blocks.length === 0 && answer.structuredContent !== undefined)
    blocks = [structured(answer.structuredContent)];
  if (blocks.length === 0) blocks = [text('(the tool returned no content)')];
  blocks = compact(blocks, MAX_RESULT_IMAGES);
  const total = blocks.reduce((sum, block) => sum + (block.type === 'text' ? block.text.length : 0), 0);
  if (total <= maxChars) return blocks;
  const kept: ToolResultContent[] = [];
  let left = maxChars;
  for (const block of blocks) {
    if (block.type === 'image') kept.push(block);
    else if (left > 0) {
      kept.push(text(block.text.slice(0, left)));
      left -= Math.min(block.text.length, left);
    }
  }
  const cut = total - maxChars;
  kept.push(
    text(
      `[Output truncated: ${cut.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} characters cut.]`,
    ),
  );
  return compact(kept, MAX_RESULT_IMAGES);
}
