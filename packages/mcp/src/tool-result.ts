import type { ImageMediaType, TextBlock, ToolResultContent } from '@troupe/core';
import { IMAGE_MEDIA_TYPES } from '@troupe/core/internal';

/** Default cap on the text an MCP tool returns to the model, in characters (as the Node tools). */
export const DEFAULT_MAX_RESULT_CHARS = 30_000;

/** The parts of an MCP `CallToolResult` troupe reads. */
export interface McpCallResult {
  content?: unknown[];
  structuredContent?: unknown;
  isError?: boolean;
}

const kilobytes = (base64: string) => `${(Math.floor((base64.length * 3) / 4) / 1024).toFixed(1)} KB`;

/** An image block when the data is base64 in a format the model reads; otherwise undefined. */
function imageOf(mimeType: unknown, data: unknown): ToolResultContent | undefined {
  const type = typeof mimeType === 'string' ? mimeType.toLowerCase() : '';
  if (!IMAGE_MEDIA_TYPES.includes(type as ImageMediaType) || typeof data !== 'string' || data === '')
    return undefined;
  return { type: 'image', source: { type: 'base64', media_type: type as ImageMediaType, data } };
}

const text = (value: string): TextBlock => ({ type: 'text', text: value });

/** One MCP content item as blocks for the model. */
function describe(item: Record<string, unknown>): ToolResultContent[] {
  switch (item.type) {
    case 'text':
      return [text(String(item.text ?? ''))];
    case 'image': {
      const image = imageOf(item.mimeType, item.data);
      if (image) return [image];
      return [
        text(
          `[image: ${String(item.mimeType ?? 'unknown type')}, ${kilobytes(String(item.data ?? ''))}; a format the model cannot see]`,
        ),
      ];
    }
    case 'audio':
      return [
        text(
          `[audio: ${String(item.mimeType ?? 'unknown type')}, ${kilobytes(String(item.data ?? ''))}; not shown to the model]`,
        ),
      ];
    case 'resource_link': {
      const label = item.title ?? item.name ?? item.uri;
      const details = [item.mimeType, item.description].filter((part) => typeof part === 'string' && part);
      return [
        text(
          `[resource link: ${String(label)} <${String(item.uri)}>${details.length ? ` (${details.join('; ')})` : ''}]`,
        ),
      ];
    }
    case 'resource': {
      const resource = (item.resource ?? {}) as Record<string, unknown>;
      const header = `[resource <${String(resource.uri)}>${resource.mimeType ? ` ${String(resource.mimeType)}` : ''}]`;
      if (typeof resource.text === 'string') return [text(`${header}\n${resource.text}`)];
      const image = imageOf(resource.mimeType, resource.blob);
      if (image) return [text(header), image];
      return [text(`${header} binary, ${kilobytes(String(resource.blob ?? ''))}; not shown to the model`)];
    }
    default:
      return [text(`[${String(item.type)} content not supported]`)];
  }
}

/**
 * Maps an MCP tool result to blocks for the model: text as is; images (PNG, JPEG, GIF, WebP, also
 * as embedded resources) as image blocks the model sees; resource links and embedded text
 * resources with their URI; audio, other image formats and binary resources as a one-line note.
 * Structured content is used (as JSON) only when there is no content. The text is cut to
 * `maxChars` characters with a note saying how much was cut (images are bounded by the runtime's
 * cap on a stored tool result).
 */
export function toContentBlocks(
  result: McpCallResult,
  maxChars = DEFAULT_MAX_RESULT_CHARS,
): ToolResultContent[] {
  const items = Array.isArray(result.content) ? result.content : [];
  let blocks = items
    .filter((item): item is Record<string, unknown> => item !== null && typeof item === 'object')
    .flatMap(describe);
  if (blocks.length === 0 && result.structuredContent !== undefined)
    blocks = [text(JSON.stringify(result.structuredContent, null, 2))];
  if (blocks.length === 0) blocks = [text('(the tool returned no content)')];
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
  return kept;
}
