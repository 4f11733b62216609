import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type FakeAnthropicServer, lastUserText, textStep } from '../../../test/fake-anthropic/index.js';
import { fixtureProject, tempDir } from './helpers/cli.js';
import { gate, sessionScenario } from './helpers/fake-claude.js';
import type { TmuxTerminal } from './helpers/tmux.js';
import { useTmuxSessions } from './helpers/tmux-sessions.js';

const sessions = useTmuxSessions();
let server: FakeAnthropicServer | undefined;

/** The scenario of the session tests, plus "count": the main agent says how many messages it was sent. */
async function startServer(): Promise<FakeAnthropicServer> {
  const scenario = sessionScenario({ explore: gate() });
  server = await sessions.serve((request) => {
    const messages: unknown[] = request.body.messages;
    if (/^count/.test(lastUserText(request))) return textStep(`I was sent ${messages.length} messages.`);
    return scenario(request);
  });
  return server;
}

function startSession(home: string, project = fixtureProject()): Promise<TmuxTerminal> {
  return sessions.open({ server: server!, home, project, timeoutMs: 60_000 });
}

describe('session commands (tmux)', () => {
  it('/cost, /model, /clear and /cancel', async () => {
    const fake = await startServer();
    const terminal = await startSession(tempDir('home'));
    terminal.line('count one');
    await terminal.waitFor(/I was sent 1 messages\./);
    terminal.line('count two');
    await terminal.waitFor(/I was sent 3 messages\./);

    terminal.line('/cost');
    const cost = await terminal.waitFor(/Cache hits: \d+% of the input tokens/);
    expect(cost).toMatch(/INPUT\s+CACHE READ\s+CACHE WRITE\s+OUTPUT/);
    expect(cost).toMatch(/main agent \(2 runs\)\s+[\d.]+k?\s+[\d.]+k? \(\d+%\)/);
    expect(cost).toMatch(/sub-agents \(0 ended tasks\)\s+0\s+0 \(0%\)/);
    // The ledger's split by agent and model, with the estimated cost at list prices.
    const ledger = await terminal.waitFor(/Estimated cost: \$\d+\.\d+/);
    expect(ledger).toMatch(/AGENT\s+RUNS\s+INPUT\s+CACHE READ\s+CACHE WRITE\s+OUTPUT\s+COST/);
    expect(ledger).toMatch(/main\s+2\s+\S+\s+\S+\s+\S+\s+\S+\s+\$\d+\.\d+/);
    expect(ledger).toMatch(/claude-sonnet-5-5\s+2\s+/);

    terminal.line('/model');
    await terminal.waitFor(/main model: claude-sonnet-5-5/);
    terminal.line('/model opus');
    await terminal.waitFor(/Main model: claude-opus-5-5 \(was claude-sonnet-5-5\), from the next request\./);

    terminal.line('/clear');
    await terminal.waitFor(/Conversation cleared/);
    terminal.line('count three');
    await terminal.waitFor((screen) => screen.split('I was sent 1 messages.').length === 3);
    const last = fake.requests.at(-1)!;
    expect(last.body.model).toBe('claude-opus-5-5');

    terminal.line('/cancel');
    await terminal.waitFor(/Nothing to cancel: no turn or task of this session is running\./);
    terminal.line('search in the background');
    await terminal.waitFor(/Summary: Started task t_\S+ in the background/);
    terminal.line('/cancel');
    const cancelled = await terminal.waitFor(/Cancelled 1 task \(\[explore\] Search in the background\)\./);
    expect(cancelled).toMatch(/\[explore\] Search in the background - cancelled/);
    terminal.line('/cost');
    await terminal.waitFor(/sub-agents \(1 ended task\)/);
  }, 180_000);

  it('the Up arrow recalls messages of an earlier session, not the answers to questions', async () => {
    await startServer();
    const home = tempDir('home');
    const project = fixtureProject();
    const first = await startSession(home, project);
    first.line('count from the first session');
    await first.waitFor(/I was sent 1 messages\./);
    first.line('write the notes');
    await first.waitFor(/Approve\? \[y\]es/);
    first.line('y');
    await first.waitFor(/Wrote notes\.txt\./);
    first.line('/exit');
    await first.waitFor(/\[exit 0\]/);
    const file = join(home, '.troupe', 'history');
    expect(readFileSync(file, 'utf8')).toBe('count from the first session\nwrite the notes\n/exit\n');
    expect(statSync(file).mode & 0o777).toBe(0o600);

    const second = await startSession(home, project);
    second.press('Up');
    await second.waitFor(/^> \/exit$/m);
    second.press('Up', 'Up');
    await second.waitFor(/^> count from the first session$/m);
    second.press('Enter');
    await second.waitFor(/I was sent 1 messages\./);
  }, 180_000);

  it('the /agents create wizard asks a field again after an invalid answer, then shows the file and writes it', async () => {
    await startServer();
    const project = fixtureProject();
    const terminal = await startSession(tempDir('home'), project);
    terminal.line('/agents create');
    await terminal.waitFor(/^Name \(lowercase-with-hyphens\): $/m);
    terminal.line('Bad Name!');
    await terminal.waitFor(
      /"Bad Name!" is not a valid agent name; try "bad-name"\.\nName \(lowercase-with-hyphens\): $/m,
    );
    terminal.line('sql-checker');
    await terminal.waitFor(/When should the main agent use it\? $/m);
    terminal.line('Checks SQL files.');
    await terminal.waitFor(/^Tools \(comma-separated .*\): $/m);
    terminal.line('read, fly');
    await terminal.waitFor(
      /Unknown tool: fly\. Choose from read, glob, grep, ls, write, edit, bash\.\nTools /,
    );
    terminal.line('read, grep');
    await terminal.waitFor(/^Model \(.*\): $/m);
    terminal.line('');
    await terminal.waitFor(/^Instructions, one line .*: $/m);
    terminal.line('You check SQL files for risky statements.');
    const preview = await terminal.waitFor(/\[y\]es \/ \[n\]o: $/m);
    expect(preview).toContain('name: "sql-checker"');
    expect(preview).toContain('tools: ["read", "grep"]');
    terminal.line('y');
    await terminal.waitFor(/Created agent "sql-checker" in /);
    const file = readFileSync(join(project, '.troupe', 'agents', 'sql-checker.md'), 'utf8');
    expect(file).toContain('tools: ["read", "grep"]');
    expect(file).toContain('You check SQL files for risky statements.');
  }, 180_000);
});
