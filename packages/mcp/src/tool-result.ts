import type { TextBlock } from '@troupe/core';

/** Default cap on the text an MCP tool returns to the model, in characters (as the Node tools). */
export const DEFAULT_MAX_RESULT_CHARS = 30_000;

/** The parts of an MCP `CallToolResult` troupe reads. */
export interface McpCallResult {
  content?: unknown[];
  structuredContent?: unknown;
  isError?: boolean;
}

const kilobytes = (base64: string) => `${(Math.floor((base64.length * 3) / 4) / 1024).toFixed(1)} KB`;

/** One MCP content item as text for the model. */
function describe(item: Record<string, unknown>): string {
  switch (item.type) {
    case 'text':
      return String(item.text ?? '');
    case 'image':
    case 'audio':
      // troupe's tool results carry text only for now: say what came rather than drop it.
      return `[${item.type}: ${String(item.mimeType ?? 'unknown type')}, ${kilobytes(String(item.data ?? ''))}; not shown to the model]`;
    case 'resource_link': {
      const label = item.title ?? item.name ?? item.uri;
      const details = [item.mimeType, item.description].filter((part) => typeof part === 'string' && part);
      return `[resource link: ${String(label)} <${String(item.uri)}>${details.length ? ` (${details.join('; ')})` : ''}]`;
    }
    case 'resource': {
      const resource = (item.resource ?? {}) as Record<string, unknown>;
      const header = `[resource <${String(resource.uri)}>${resource.mimeType ? ` ${String(resource.mimeType)}` : ''}]`;
      if (typeof resource.text === 'string') return `${header}\n${resource.text}`;
      return `${header} binary, ${kilobytes(String(resource.blob ?? ''))}; not shown to the model`;
    }
    default:
      return `[${String(item.type)} content not supported]`;
  }
}

/**
 * Maps an MCP tool result to text blocks: text as is, resource links and embedded text resources
 * with their URI, images, audio and binary resources as a one-line note. Structured content is
 * used (as JSON) only when there is no content. The whole is cut to `maxChars` characters with a
 * note saying how much was cut.
 */
export function toTextBlocks(result: McpCallResult, maxChars = DEFAULT_MAX_RESULT_CHARS): TextBlock[] {
  const items = Array.isArray(result.content) ? result.content : [];
  let texts = items
    .filter((item): item is Record<string, unknown> => item !== null && typeof item === 'object')
    .map(describe);
  if (texts.length === 0 && result.structuredContent !== undefined)
    texts = [JSON.stringify(result.structuredContent, null, 2)];
  if (texts.length === 0) texts = ['(the tool returned no content)'];
  const total = texts.reduce((sum, text) => sum + text.length, 0);
  if (total <= maxChars) return texts.map((text) => ({ type: 'text', text }));
  const blocks: TextBlock[] = [];
  let left = maxChars;
  for (const text of texts) {
    if (left <= 0) break;
    blocks.push({ type: 'text', text: text.slice(0, left) });
    left -= text.length;
  }
  const cut = total - maxChars;
  blocks.push({
    type: 'text',
    text: `[Output truncated: ${cut.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} characters cut.]`,
  });
  return blocks;
}
