import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixtureProject } from './helpers/cli.js';
import { type Gate, gate, sessionScenario } from './helpers/fake-claude.js';
import type { TmuxTerminal } from './helpers/tmux.js';
import { useTmuxSessions } from './helpers/tmux-sessions.js';

const sessions = useTmuxSessions();

async function startSession(explore: Gate): Promise<{ terminal: TmuxTerminal; project: string }> {
  const server = await sessions.serve(sessionScenario({ explore }));
  const project = fixtureProject();
  const terminal = await sessions.open({ server, project, ready: /Type a request; \/help for commands/ });
  await terminal.waitFor(/^> $/m);
  return { terminal, project };
}

describe('troupe in a real terminal (tmux)', () => {
  it('delegates with live progress, asks for approval, lists agents and tasks, and exits', async () => {
    const explore = gate();
    const { terminal, project } = await startSession(explore);

    terminal.line('find the auth code');
    // The live line while the sub-agent works (its answer waits on the gate).
    await terminal.waitFor(/\[explore\] Find auth code \.\.\. 1 tool, [\d.]+m?s · grep login/);
    explore.open();
    const afterAuth = await terminal.waitFor(/Summary: login is in src\/auth\.js/);
    expect(afterAuth).toMatch(/\[explore\] Find auth code - done \(1 tool, [\d.]+m?s, [\d.]+k? tokens\)/);
    // The finished line replaced the live one: it is on screen once.
    expect(afterAuth.match(/\[explore\] Find auth code/g)).toHaveLength(1);

    terminal.line('write the notes');
    const prompt = await terminal.waitFor(
      /Approve\? \[y\]es \/ \[n\]o \/ \[a\]lways allow write \/ \[p\] always allow Edit\(notes\.txt\) this session: $/m,
    );
    expect(prompt).toMatch(
      /Approval needed: \[general-purpose\] Write notes file wants to run write \(write\)/,
    );
    // A new file: its whole text as added lines.
    expect(prompt).toMatch(/^ {2}notes\.txt \(new file\)$/m);
    expect(prompt).toMatch(/^ {2}\+hello from troupe$/m);
    terminal.line('y');
    await terminal.waitFor(/Approved write\./);
    await terminal.waitFor(/Summary: Wrote notes\.txt\./);
    expect(readFileSync(join(project, 'notes.txt'), 'utf8')).toBe('hello from troupe\n');

    terminal.line('/agents');
    const agents = await terminal.waitFor(/NAME\s+SOURCE\s+MODEL\s+TOOLS[\s\S]*plan\s+built-in/);
    expect(agents).toMatch(/explore\s+built-in\s+small\s+read, glob, grep, ls/);

    terminal.line('/tasks');
    const tasks = await terminal.waitFor(/ID\s+AGENT\s+DESCRIPTION\s+STATUS[\s\S]*Write notes file/);
    expect(tasks).toMatch(/t_\S+\s+explore\s+Find auth code\s+completed\s+1/);
    expect(tasks).toMatch(/t_\S+\s+general-purpose\s+Write notes file\s+completed\s+1/);
    const id = /(t_\S+)\s+explore\s+Find auth code/.exec(tasks)![1]!;

    terminal.line(`/tasks show ${id}`);
    const shown = await terminal.waitFor(/→ grep/);
    expect(shown).toMatch(/pattern: login/);
    expect(shown).toMatch(/login is in src\/auth\.js/);

    // Colours on a terminal (the agent tag is coloured).
    expect(terminal.captureWithStyles()).toMatch(
      new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m\\[explore\\]`),
    );

    terminal.line('/exit');
    await terminal.waitFor(/\[exit 0\]/);
  });

  it('Ctrl-C cancels the turn and its foreground sub-agent; a second Ctrl-C exits', async () => {
    const { terminal } = await startSession(gate());
    terminal.line('find the auth code');
    await terminal.waitFor(/\[explore\] Find auth code \.\.\. 1 tool/);
    // Ctrl-O shows the streamed text under each running task; the main agent's is its tool call.
    terminal.press('C-o');
    await terminal.waitFor(/Showing streamed text \(Ctrl-O to hide\)\./);
    terminal.press('C-c');
    const screen = await terminal.waitFor(
      (text) => text.includes('(The turn was interrupted.)') && text.includes('Press Ctrl-C again to exit.'),
    );
    expect(screen).toContain('Interrupted: the current turn and its foreground sub-agents were cancelled.');
    expect(screen).toMatch(/\[explore\] Find auth code - cancelled \(1 tool, /);
    terminal.press('C-c');
    await terminal.waitFor(/\[exit 0\]/);
  });

  it('keeps the prompt usable while a background task runs and cancels it on exit', async () => {
    const { terminal } = await startSession(gate());
    terminal.line('search in the background');
    await terminal.waitFor(/\[explore\] Search in the background \.\.\. 1 tool/);
    await terminal.waitFor(/Summary: Started task t_\S+ in the background/);
    // The main agent is idle while the task runs: another message is answered at once.
    terminal.line('hello');
    await terminal.waitFor(/Hello from the fake Claude\./);
    terminal.line('/exit');
    const screen = await terminal.waitFor(/\[exit 0\]/);
    expect(screen).toMatch(
      /Cancelled 1 unfinished task of this session on exit: \[explore\] Search in the background\./,
    );
  });
});
