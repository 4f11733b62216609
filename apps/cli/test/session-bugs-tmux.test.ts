import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { textStep } from '../../../test/fake-anthropic/index.js';
import { cliTempDir, fixtureProject } from './helpers/cli.js';
import { gate, sessionScenario } from './helpers/fake-claude.js';
import { useTmuxSessions } from './helpers/tmux-sessions.js';

const sessions = useTmuxSessions();

const count = (text: string, part: string) => text.split(part).length - 1;

describe('bugs a user hit in the session (tmux)', () => {
  it('a failed turn does not reprint the previous answer, nor add "(No reply.)"', async () => {
    const fake = await sessions.serve(() => ({
      fault: 'http_error',
      status: 400,
      errorType: 'invalid_request_error',
      message: 'Scripted refusal.',
    }));
    fake.enqueue(textStep('First answer: everything is fine.'));
    const terminal = await sessions.open({ server: fake });
    terminal.line('hello');
    await terminal.waitFor(/First answer: everything is fine\./);
    terminal.line('now something else');
    await terminal.waitFor(/The main agent stopped \(ERROR\)/);
    terminal.line('and once more');
    const screen = await terminal.waitFor((text) => count(text, 'The main agent stopped (ERROR)') === 2);
    await terminal.waitFor(/^> $/m);
    const final = terminal.capture();
    expect(count(final, 'First answer: everything is fine.')).toBe(1);
    expect(final).not.toMatch(/No reply/i);
    expect(screen).toContain('Scripted refusal');
    // The validation of a conversation that kept failing: every request the fake got was valid.
    fake.setHandler(() => textStep('ok'));
  });

  it('/agents create keeps the tasks, the "always allow" answers and the conversation', async () => {
    const fake = await sessions.serve(sessionScenario({ explore: gate(true) }));
    const project = fixtureProject();
    const terminal = await sessions.open({ server: fake, project });
    terminal.line('find the auth code');
    await terminal.waitFor(/Summary: login is in src\/auth\.js/);
    terminal.line('write the notes');
    await terminal.waitFor(/Approve\? \[y\]es/);
    terminal.line('a');
    await terminal.waitFor(/Summary: Wrote notes\.txt\./);
    terminal.line('/tasks');
    const tasks = await terminal.waitFor(/t_\S+\s+explore\s+Find auth code/);
    const id = /(t_\S+)\s+explore\s+Find auth code/.exec(tasks)![1]!;

    terminal.line('/agents create Reviews SQL migrations');
    await terminal.waitFor(/Write it\? \[y\]es/);
    terminal.line('y');
    await terminal.waitFor(/Created agent "migration-reviewer"/);

    terminal.line(`/tasks show ${id}`);
    const shown = await terminal.waitFor(/(→ grep|No task with id)/);
    expect(shown).not.toContain('No task with id');
    // "Always allow write" is still remembered: the second write asks nothing.
    terminal.line('write the notes again');
    await terminal.waitFor((text) => count(text, 'Summary: ') >= 3);
    expect(count(terminal.capture(), 'Approval needed:')).toBe(1);
    // The conversation went on: the new request carries the earlier messages.
    const last = fake.requests[fake.requests.length - 1]!;
    expect(JSON.stringify(last.body.messages)).toContain('find the auth code');
    // The new agent is offered to the main agent: announced in the conversation, while its task tool
    // stays as the session first showed it (so the prompt cache keeps the prefix).
    expect(JSON.stringify(last.body.messages)).toContain(
      '- migration-reviewer: Reviews SQL migrations for safety.',
    );
    const first = fake.requests.find((request) =>
      JSON.stringify(request.body.tools ?? []).includes('"task"'),
    )!;
    expect(last.body.tools).toEqual(first.body.tools);
  });

  it('says at start which tools an agent file lists that troupe does not have, with the line', async () => {
    const project = fixtureProject();
    mkdirSync(join(project, '.claude', 'agents'), { recursive: true });
    const file = join(project, '.claude', 'agents', 'lister.md');
    writeFileSync(file, '---\nname: lister\ndescription: Lists\ntools: [read, grep, WebFetch\n---\nList.\n');
    const terminal = await sessions.open({ server: await sessions.serve(() => textStep('hi')), project });
    const screen = terminal.capture();
    expect(screen).toContain(`lister.md:4: 'tools' is a list that is not valid YAML`);
    expect(screen).toContain('agent "lister" lists tool WebFetch, which troupe does not have');
    expect(count(screen, 'WebFetch, which')).toBe(1);
  });

  it('/exit says which queued messages were not sent', async () => {
    const slow = gate();
    const fake = await sessions.serve(() => ({ ...textStep('Answered.'), gate: slow.promise }));
    const terminal = await sessions.open({ server: fake });
    terminal.line('first question');
    await fake.waitForRequests(1);
    terminal.line('second question');
    await terminal.waitFor(/Queued: it is sent when the current reply is done/);
    terminal.line('/exit');
    const screen = await terminal.waitFor(/\[exit 0\]/);
    expect(screen).toContain('Not sent (you exited first): "second question".');
    slow.open();
  });

  it('Ctrl-D with a background task running exits without "the main agent is reading its result"', async () => {
    const fake = await sessions.serve(sessionScenario({ explore: gate() }));
    const terminal = await sessions.open({ server: fake });
    terminal.line('search in the background');
    await terminal.waitFor(/Summary: Started task t_\S+ in the background/);
    await terminal.waitFor(/^> $/m);
    terminal.press('C-d');
    const screen = await terminal.waitFor(/\[exit 0\]/);
    expect(screen).toMatch(/Cancelled 1 unfinished task of this session on exit/);
    expect(screen).not.toContain('the main agent is reading its result');
  });

  it("Ctrl-C at the demo's approval prompt prints the cancelled line once and keeps the question on screen", async () => {
    const terminal = await sessions.open({
      args: ['demo'],
      env: { TMPDIR: cliTempDir() },
      ready: /Approve\? \[y\]es/,
      timeoutMs: 60_000,
    });
    terminal.press('C-c');
    const screen = await terminal.waitFor(/\[exit \d+\]/);
    expect(count(screen, '[general-purpose] Count lines of code - cancelled')).toBe(1);
    expect(count(screen, 'Approval needed: [general-purpose] Count lines of code wants to run bash')).toBe(1);
    expect(screen).toMatch(/^ {2}\$ find \. -type f/m);
    expect(screen).toContain('Demo interrupted.');
  });
});
