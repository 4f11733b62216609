import { describe, expect, it } from 'vitest';
import { isMainAgent, textStep, toolResultsOf, toolStep } from '../../../test/fake-anthropic/index.js';
import { gate } from './helpers/fake-claude.js';
import { useTmuxSessions } from './helpers/tmux-sessions.js';

const sessions = useTmuxSessions();

const ESC = String.fromCharCode(27);
const count = (text: string, part: string) => text.split(part).length - 1;

describe('the main agent as it works (tmux)', () => {
  it('streams its text before the reply ends, under a spinner with time and tokens', async () => {
    const pause = gate();
    const fake = await sessions.serve(() => ({
      ...textStep('Streaming starts here, then a pause.\nSecond line after the pause.'),
      gate: pause.promise,
      // The first events and a 16-character delta or two, then a pause until the gate opens.
      pauseAfterEvents: 5,
    }));
    const terminal = await sessions.open({ server: fake, timeoutMs: 60_000 });
    terminal.line('tell me something');
    const during = await terminal.waitFor(/Streaming starts/);
    expect(during).not.toContain('Second line');
    expect(during).toMatch(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] Working… \(\d+\.\ds · [\d.]+k? tokens · Ctrl-C to interrupt\)/);
    pause.open();
    const after = await terminal.waitFor(/Second line after the pause\./);
    await terminal.waitFor((screen) => !screen.includes('Working…'));
    const final = terminal.capture();
    expect(count(final, 'Streaming starts here, then a pause.')).toBe(1);
    expect(count(final, 'Second line after the pause.')).toBe(1);
    expect(after).not.toContain('(no reply)');
  });

  it('shows what the main agent writes before a tool call, and a line for each retry', async () => {
    const fake = await sessions.serve((request) => {
      if (!isMainAgent(request)) return textStep('login is in src/auth.js');
      if (toolResultsOf(request).length === 0)
        return toolStep(
          'task',
          { description: 'Find auth code', prompt: 'Find login.', subagent_type: 'explore' },
          { text: 'Let me delegate that.' },
        );
      return textStep('Done: it is in src/auth.js.');
    });
    fake.enqueue({ fault: 'rate_limited', retryAfter: 1 });
    const terminal = await sessions.open({ server: fake, timeoutMs: 60_000 });
    terminal.line('find the auth code');
    await terminal.waitFor(/retrying in 1s \(429, attempt 2\/5\)/);
    const screen = await terminal.waitFor(/Done: it is in src\/auth\.js\./);
    expect(screen).toMatch(
      /Anthropic API rate limit reached \(HTTP 429\): retrying in 1s \(429, attempt 2\/5\)/,
    );
    expect(count(screen, 'Let me delegate that.')).toBe(1);
    expect(screen.indexOf('Let me delegate that.')).toBeLessThan(screen.indexOf('[explore] Find auth code'));
  });

  it('shows the model\'s reasoning as it streams, dimmed under "✻ Thinking", then the answer (--thinking)', async () => {
    const pause = gate();
    const fake = await sessions.serve(() => ({
      content: [
        {
          type: 'thinking',
          thinking: 'Weighing the two options first.\nOption B is simpler to test.',
          signature: 'sig-1',
        },
        { type: 'text', text: 'Go with option B.' },
      ],
      gate: pause.promise,
      // message_start, the thinking block's start, a ping and two 16-character deltas: the first line.
      pauseAfterEvents: 5,
    }));
    const terminal = await sessions.open({ server: fake, args: ['--thinking', '2048'], timeoutMs: 60_000 });
    terminal.line('which option?');
    const during = await terminal.waitFor(/Weighing the two options first\./);
    expect(during).toMatch(/✻ Thinking\n {2}Weighing the two options first\./);
    expect(during).toMatch(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] Thinking… \(\d+\.\ds · /);
    expect(during).not.toContain('Go with option B.');
    pause.open();
    const after = await terminal.waitFor(/Go with option B\./);
    expect(after).toMatch(/ {2}Option B is simpler to test\.\n\nGo with option B\./);
    const styled = terminal.captureWithStyles();
    // tmux writes a style where it changes: dim from the reasoning's first line, reset before the answer.
    expect(styled).toMatch(new RegExp(`${ESC}\\[2m(${ESC}\\[\\d+m)* {2}Weighing the two options first\\.`));
    expect(styled).toMatch(new RegExp(`${ESC}\\[0m(${ESC}\\[\\d+m)*Go with option B\\.`));
    expect(fake.requests[0]!.body.thinking).toEqual({ type: 'enabled', budget_tokens: 2048 });
    await terminal.waitFor((screen) => !screen.includes('Thinking…'));
    expect(count(terminal.capture(), 'Go with option B.')).toBe(1);
  });
});
