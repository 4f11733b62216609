import { type Tool, type ToolResultContent, toolResultText } from '@troupe/core';
import { isImageBlock } from '@troupe/core/internal';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type McpHub, toContentBlocks } from '../src/index.js';
import { createNodeMcpHub } from '../src/node/index.js';
import { HOSTILE, nodeServer } from './servers.js';
import { findTool, toolContext } from './tool-calls.js';

// A real server process: seconds on a busy machine.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

// Hostile result shapes end in a capped result or a note, never an exception.
const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';
const blocksOf = (output: unknown) => output as ToolResultContent[];

describe('hostile results from a real server', () => {
  let hub: McpHub;
  let shape: Tool;
  const call = async (kind: string) => blocksOf(await shape.execute({ kind }, toolContext()));

  beforeAll(async () => {
    hub = createNodeMcpHub({ servers: [nodeServer('hostile', HOSTILE)] });
    shape = findTool(await hub.tools(), 'mcp__hostile__shape');
  });
  afterAll(() => hub.close());

  it('100,000 content blocks become one capped text block and a note', async () => {
    const blocks = await call('many-blocks');
    expect(blocks.length).toBeLessThanOrEqual(2);
    const text = toolResultText(blocks);
    expect(text.startsWith('b0\nb1\nb2\n')).toBe(true);
    expect(text).toMatch(/\[Output truncated: [\d,]+ of [\d,]+ characters cut\.\]$/);
    expect(text.length).toBeLessThan(30_200);
  });

  it('structured content nested 100,000 deep is a note, not a stack overflow', async () => {
    expect(toolResultText(await call('deep-structured'))).toBe(
      '[structured content nested more than 1,000 levels deep; not shown]',
    );
  });

  it('an "image" whose bytes are no image is a note, never an image block the model API would refuse', async () => {
    const blocks = await call('bad-base64');
    expect(blocks.some(isImageBlock)).toBe(false);
    expect(toolResultText(blocks)).toBe(
      '[image: image/png, 11 bytes; not a PNG, JPEG, GIF or WebP image, so not shown]',
    );
  });

  it('base64 with spaces in it is cleaned; an image labelled with the wrong type gets its real type', async () => {
    const [spaced] = await call('spaced-base64');
    expect(spaced).toEqual({ type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } });
    const [mislabelled] = await call('mislabelled-image');
    expect(mislabelled).toEqual({
      type: 'image',
      source: { type: 'base64', media_type: 'image/png', data: PNG },
    });
  });

  it('an embedded resource with 8 MB of text is cut to the cap', async () => {
    const text = toolResultText(await call('giant-resource'));
    expect(text.startsWith('[resource <file:///big.txt> text/plain]\nrrr')).toBe(true);
    expect(text).toMatch(/\[Output truncated: 8,358,\d{3} of 8,388,\d{3} characters cut\.\]$/);
  });
});

describe('toContentBlocks with any value', () => {
  const cases: [string, unknown][] = [
    ['null', null],
    ['a string', 'text'],
    ['content that is not a list', { content: 'not a list' }],
    ['content items that are not objects', { content: [null, 3, 'x', [1], true] }],
    ['text that is not a string', { content: [{ type: 'text', text: { nested: true } }] }],
    ['an image without data', { content: [{ type: 'image', mimeType: 'image/png' }] }],
    ['a resource without a resource', { content: [{ type: 'resource' }] }],
    [
      'a cyclic structured content',
      (() => {
        const cyclic: Record<string, unknown> = {};
        cyclic.self = cyclic;
        return { structuredContent: cyclic };
      })(),
    ],
    ['a BigInt in structured content', { structuredContent: { n: 10n } }],
  ];
  it.each(cases)('%s gives blocks, never an exception', (_, value) => {
    const blocks = toContentBlocks(value as never);
    expect(blocks.length).toBeGreaterThan(0);
    for (const block of blocks) expect(block.type === 'text' || isImageBlock(block)).toBe(true);
  });

  it('more than 20 images: the first 20 are kept and the rest named in a note', () => {
    const content = Array.from({ length: 25 }, () => ({ type: 'image', mimeType: 'image/png', data: PNG }));
    const blocks = toContentBlocks({ content });
    expect(blocks.filter(isImageBlock)).toHaveLength(20);
    expect(toolResultText(blocks)).toMatch(/\[5 more images not shown: at most 20 per result\]$/);
  });
});
