import type { ImageBlock, ImageMediaType, ToolResultContent } from './types.js';

/** The image formats a tool result may carry (those the model API reads). */
export const IMAGE_MEDIA_TYPES: readonly ImageMediaType[] = Object.freeze([
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
]);

/** Roughly what one image costs in characters of text, for usage estimates (~1,600 tokens). */
export const IMAGE_CHARS_ESTIMATE = 6_400;

/** True for a well-formed image block: base64 data in a format the model API reads. */
export function isImageBlock(value: unknown): value is ImageBlock {
  if (typeof value !== 'object' || value === null) return false;
  const block = value as {
    type?: unknown;
    source?: { type?: unknown; media_type?: unknown; data?: unknown };
  };
  return (
    block.type === 'image' &&
    typeof block.source === 'object' &&
    block.source !== null &&
    block.source.type === 'base64' &&
    IMAGE_MEDIA_TYPES.includes(block.source.media_type as ImageMediaType) &&
    typeof block.source.data === 'string'
  );
}

/** A one-line stand-in for an image where only text can go (displays, summaries). */
export function imagePlaceholder(image: ImageBlock): string {
  const kilobytes = (Math.floor((image.source.data.length * 3) / 4) / 1024).toFixed(1);
  return `[image: ${image.source.media_type}, ${kilobytes} KB]`;
}

/** The text of a tool result, blocks joined by newlines, each image as a placeholder. */
export function toolResultText(content: string | readonly ToolResultContent[]): string {
  if (typeof content === 'string') return content;
  return content.map((block) => (block.type === 'image' ? imagePlaceholder(block) : block.text)).join('\n');
}
