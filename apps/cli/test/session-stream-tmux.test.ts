import { afterEach, describe, expect, it } from 'vitest';
import {
  type FakeAnthropicServer,
  textStep,
  toolNamesOf,
  toolResultsOf,
  toolStep,
} from '../../../test/fake-anthropic/index.js';
import { cliCommandLine, fixtureProject, tempDir } from './helpers/cli.js';
import { fakeEnv, gate, startFakeClaude } from './helpers/fake-claude.js';
import { TmuxTerminal } from './helpers/tmux.js';

let server: FakeAnthropicServer | undefined;
let terminal: TmuxTerminal | undefined;

afterEach(async () => {
  terminal?.kill();
  terminal = undefined;
  await server?.close();
  server = undefined;
});

async function start(fake: FakeAnthropicServer): Promise<TmuxTerminal> {
  server = fake;
  terminal = TmuxTerminal.start(cliCommandLine([]), {
    cwd: fixtureProject(),
    env: { HOME: tempDir('home'), ...fakeEnv(fake), TERM: 'xterm-256color' },
  });
  await terminal.waitFor(/^> $/m);
  return terminal;
}

const count = (text: string, part: string) => text.split(part).length - 1;

describe('the main agent as it works (tmux)', () => {
  it('streams its text before the reply ends, under a spinner with time and tokens', async () => {
    const pause = gate();
    const fake = await startFakeClaude(() => ({
      ...textStep('Streaming starts here, then a pause.\nSecond line after the pause.'),
      gate: pause.promise,
      // The first events and a 16-character delta or two, then a pause until the gate opens.
      pauseAfterEvents: 5,
    }));
    const terminal = await start(fake);
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
    const fake = await startFakeClaude((request) => {
      if (!toolNamesOf(request).includes('task')) return textStep('login is in src/auth.js');
      if (toolResultsOf(request).length === 0)
        return toolStep(
          'task',
          { description: 'Find auth code', prompt: 'Find login.', subagent_type: 'explore' },
          { text: 'Let me delegate that.' },
        );
      return textStep('Done: it is in src/auth.js.');
    });
    fake.enqueue({ fault: 'rate_limited', retryAfter: 1 });
    const terminal = await start(fake);
    terminal.line('find the auth code');
    await terminal.waitFor(/retrying in 1s \(429, attempt 2\/5\)/);
    const screen = await terminal.waitFor(/Done: it is in src\/auth\.js\./);
    expect(screen).toMatch(
      /Anthropic API rate limit reached \(HTTP 429\): retrying in 1s \(429, attempt 2\/5\)/,
    );
    expect(count(screen, 'Let me delegate that.')).toBe(1);
    expect(screen.indexOf('Let me delegate that.')).toBeLessThan(screen.indexOf('[explore] Find auth code'));
  });
});
