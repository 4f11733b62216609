import { describe, expect, it } from 'vitest';
import { LiveScreen } from '../src/render/live-screen.js';
import { PlainScreen } from '../src/render/screen.js';

function stream(columns = 40, rows = 20) {
  const chunks: string[] = [];
  return { chunks, out: { isTTY: true, columns, rows, write: (text: string) => chunks.push(text) > 0 } };
}

const E = '\x1b[2K';

/** The rows of the last frame written, without the carriage return and line-clearing codes. */
function lastFrame(chunks: string[]): string[] {
  return chunks
    .pop()!
    .replace('\r', '')
    .split('\n')
    .slice(0, -1)
    .map((row) => row.replace(E, ''));
}

describe('LiveScreen', () => {
  it('redraws its region in place: up over the old rows, each row overwritten, leftovers blanked', () => {
    const { chunks, out } = stream();
    let lines = ['[a] one', '[b] two'];
    const screen = new LiveScreen(out, { lines: () => lines, tickMs: 60_000 });
    screen.refresh();
    expect(chunks.pop()).toBe(`\r${E}[a] one\n${E}[b] two\n`);
    lines = ['[b] two'];
    screen.log('[a] one - done');
    expect(chunks.pop()).toBe(`\r\x1b[2A${E}[a] one - done\n${E}[b] two\n${E}`);
    lines = [];
    screen.refresh();
    expect(chunks.pop()).toBe(`\r\x1b[1A${E}\x1b[1B${E}\x1b[1A`);
    // The screen is never cleared as a whole (tmux would push it into the scrollback).
    expect(chunks.join('')).not.toContain('\x1b[J');
    screen.close();
  });

  it('cuts lines to the terminal width and caps the region to its height', () => {
    const { chunks, out } = stream(20, 8);
    const screen = new LiveScreen(out, {
      lines: () => Array.from({ length: 10 }, (_, index) => `line ${index} ${'x'.repeat(40)}`),
      tickMs: 60_000,
    });
    screen.refresh();
    const drawn = lastFrame(chunks);
    expect(drawn).toHaveLength(5);
    expect(drawn[0]).toBe(`line 0 ${'x'.repeat(11)}…`);
    expect(drawn[4]).toBe('… and 6 more');
    screen.close();
  });

  it('draws pinned lines (a waiting question) last and whole; the task lines give way', () => {
    const { chunks, out } = stream(40, 9);
    const screen = new LiveScreen(out, {
      lines: () => ['[a] one', '[b] two', '[c] three', '[d] four'],
      pinned: () => ['Approval needed: write', '  +hello', '  +world'],
      tickMs: 60_000,
    });
    screen.refresh();
    const drawn = lastFrame(chunks);
    expect(drawn).toEqual([
      '[a] one',
      '[b] two',
      '… and 2 more',
      'Approval needed: write',
      '  +hello',
      '  +world',
    ]);
    screen.close();
  });

  it('erases the tail of a log line that wraps', () => {
    const { chunks, out } = stream(10);
    const screen = new LiveScreen(out, { lines: () => [], tickMs: 60_000 });
    screen.log('123456789012345');
    expect(chunks.pop()).toBe(`\r${E}123456789012345\x1b[K\n`);
    screen.close();
  });

  it('keeps a readline prompt below the region and accounts for a submitted line', () => {
    const { chunks, out } = stream();
    let redraws = 0;
    const screen = new LiveScreen(out, {
      lines: () => ['[a] working'],
      tickMs: 60_000,
      prompt: { rowsAboveCursor: () => 0, redraw: () => redraws++, visible: () => true },
    });
    screen.refresh();
    expect(redraws).toBe(1);
    screen.submitted('> hello');
    // Up over the region and the echoed line, then the line again as a log line, then the region.
    expect(chunks.pop()).toBe(`\r\x1b[2A${E}> hello\n${E}[a] working\n${E}`);
    expect(redraws).toBe(2);
    screen.close();
  });
});

describe('PlainScreen', () => {
  it('just prints lines', () => {
    const chunks: string[] = [];
    const screen = new PlainScreen({ write: (text) => chunks.push(text) > 0 });
    screen.log('hello');
    screen.refresh();
    expect(chunks).toEqual(['hello\n']);
  });
});
