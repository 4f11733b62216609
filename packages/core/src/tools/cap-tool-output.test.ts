import { describe, expect, it } from 'vitest';
import type { ImageBlock, ToolResultBlock } from '../model/types.js';
import { capToolOutput } from './cap-tool-output.js';

const image = (bytes: number): ImageBlock => ({
  type: 'image',
  source: { type: 'base64', media_type: 'image/png', data: 'A'.repeat(bytes) },
});
const result = (content: ToolResultBlock['content']): ToolResultBlock => ({
  type: 'tool_result',
  tool_use_id: 'u1',
  content,
});

describe('capToolOutput', () => {
  it('keeps text and images within the limit unchanged (rebuilt from their known fields)', () => {
    const within = result([{ type: 'text', text: 'a screenshot:' }, image(100)]);
    expect(capToolOutput(within, 1_000)).toEqual(within);
    const extra = { type: 'text', text: 'hi', size: 10n, self: {} as unknown };
    extra.self = extra;
    expect(capToolOutput(result([extra as never]), 1_000).content).toEqual([{ type: 'text', text: 'hi' }]);
  });

  it('counts image data against the limit: an image that does not fit whole becomes a note', () => {
    const capped = capToolOutput(
      result([image(400), { type: 'text', text: 'x'.repeat(100) }, image(800)]),
      1_000,
    );
    expect(capped.content).toEqual([
      image(400),
      { type: 'text', text: 'x'.repeat(100) },
      { type: 'text', text: '[image: image/png, 0.6 KB] not kept: over the size limit' },
      {
        type: 'text',
        text: '[Tool output cut: 800 more characters were not kept. Ask for a smaller part.]',
      },
    ]);
  });

  it('an image block that is not a well-formed image is made text, never sent as is', () => {
    const bad = { type: 'image', source: { type: 'url', url: 'http://x' } } as unknown as ImageBlock;
    const capped = capToolOutput(result([bad, image(10)]), 1_000);
    expect(capped.content).toEqual([{ type: 'text', text: '' }, image(10)]);
  });

  it('cuts text as before, with a note', () => {
    const capped = capToolOutput(result('y'.repeat(50)), 20);
    expect(capped.content).toMatch(/^y{20}\n\n\[Tool output cut: 30 more characters/);
  });
});
