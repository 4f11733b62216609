import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  type FakeHandler,
  isMainAgent,
  lastUserText,
  textStep,
  toolNamesOf,
  toolResultsOf,
  toolStep,
} from '../../../test/fake-anthropic/index.js';
import { fixtureProject, tempDir } from './helpers/cli.js';
import { gate } from './helpers/fake-claude.js';
import type { TmuxTerminal } from './helpers/tmux.js';
import { useTmuxSessions } from './helpers/tmux-sessions.js';

const sessions = useTmuxSessions();

/** The main agent calls one tool per request, chosen by the user's words, then reports the result. */
const direct: FakeHandler = (request) => {
  const results = toolResultsOf(request);
  if (results.length) return textStep(`Result: ${results[0]!.content.split('\n')[0]}`);
  const text = lastUserText(request);
  if (/fix the comment/.test(text))
    return toolStep('edit', {
      file_path: 'src/auth.js',
      old_string: '// FIXME: compare in constant time',
      new_string: '// Compared in constant time since 2026.',
    });
  const say = /^say (.*)$/.exec(text);
  if (say) return toolStep('bash', { command: `echo ${say[1]}` });
  return textStep('Hello.');
};

async function start(project: string, handler: FakeHandler = direct): Promise<TmuxTerminal> {
  return sessions.open({ server: await sessions.serve(handler), project, timeoutMs: 60_000 });
}

const ESC = String.fromCharCode(27);

describe('approvals worth reading (tmux)', () => {
  it('an edit shows a coloured diff against the file; bash shows its command', async () => {
    const project = fixtureProject();
    const terminal = await start(project);
    terminal.line('fix the comment');
    const screen = await terminal.waitFor(/Approve\? \[y\]es/);
    expect(screen).toContain('Approval needed: [main] main agent wants to run edit (write)');
    expect(screen).toMatch(/^ {2}src\/auth\.js$/m);
    expect(screen).toMatch(/@@ -1,6 \+1,6 @@/);
    expect(screen).toMatch(/^ {2}-\/\/ FIXME: compare in constant time$/m);
    expect(screen).toMatch(/^ {2}\+\/\/ Compared in constant time since 2026\.$/m);
    // The old line red, the new one green.
    const styled = terminal.captureWithStyles();
    expect(styled).toMatch(new RegExp(`${ESC}\\[31m-// FIXME`));
    expect(styled).toMatch(new RegExp(`${ESC}\\[32m\\+// Compared`));
    // The approval block stays together with its prompt at the bottom of the screen.
    expect(screen.trimEnd().split('\n').at(-1)).toMatch(/^Approve\?/);
    expect(screen).toContain('[p] always allow Edit(src/**) this session');
    terminal.line('y');
    await terminal.waitFor(/Result: /);
    expect(readFileSync(join(project, 'src', 'auth.js'), 'utf8')).toContain('since 2026');

    terminal.line('say hello world');
    const bash = await terminal.waitFor(/\[p\] always allow Bash\(echo hello:\*\) this session: $/m);
    expect(bash).toMatch(/^ {2}\$ echo hello world$/m);
  });

  it('"always allow" scoped to a command prefix: covered commands run, others still ask', async () => {
    const terminal = await start(fixtureProject());
    terminal.line('say hello world');
    await terminal.waitFor(/\[p\] always allow Bash\(echo hello:\*\)/);
    terminal.line('p');
    await terminal.waitFor(/Approved; Bash\(echo hello:\*\) is allowed for the rest of this session\./);
    await terminal.waitFor(/Result: hello world/);
    terminal.line('say hello again');
    await terminal.waitFor(/Result: hello again/);
    terminal.line('say hello; echo sneaky');
    await terminal.waitFor(/\$ echo hello; echo sneaky/);
    terminal.line('n');
    await terminal.waitFor(/Denied bash\./);
    const screen = terminal.capture();
    expect(screen.split('Approval needed:').length - 1).toBe(2);
  });

  it('asks once to trust a folder whose settings grant permissions, then honours its allow and deny rules', async () => {
    const project = fixtureProject();
    mkdirSync(join(project, '.troupe'), { recursive: true });
    writeFileSync(
      join(project, '.troupe', 'settings.json'),
      JSON.stringify({ permissions: { allow: ['Bash(echo hi:*)'], deny: ['Bash(echo secret:*)'] } }),
    );
    const home = tempDir('home');
    const question = await sessions.open({
      server: await sessions.serve(direct),
      project,
      home,
      ready: /Trust this folder .*\[y\/N\]/,
      timeoutMs: 60_000,
    });
    const asked = question.capture();
    expect(asked).toContain('allow without asking: Bash(echo hi:*)  (from .troupe/settings.json)');
    question.line('y');
    await question.waitFor(/^> $/m, 60_000);
    expect(readFileSync(join(home, '.troupe', 'trusted-folders.json'), 'utf8')).toContain('"path"');
    question.line('say hi there');
    await question.waitFor(/Result: hi there/);
    question.line('say secret stuff');
    const screen = await question.waitFor(/Result: .*Bash\(echo secret:\*\)/);
    expect(screen).not.toContain('Approval needed:');
  });

  it('the approval block stays right above its prompt while a parallel sub-agent works', async () => {
    const search = gate();
    const terminal = await start(fixtureProject(), (request) => {
      const results = toolResultsOf(request);
      // The main agent (sub-agents may have the task tools too: nesting).
      if (isMainAgent(request)) {
        if (results.length) return textStep(`Both done: ${results.length} results.`);
        return {
          content: [
            { type: 'text', text: 'Starting both.' },
            {
              type: 'tool_use',
              name: 'task',
              input: { description: 'Slow search', prompt: 'Search for login.', subagent_type: 'explore' },
            },
            {
              type: 'tool_use',
              name: 'task',
              input: {
                description: 'Write notes',
                prompt: 'Write notes.txt.',
                subagent_type: 'general-purpose',
              },
            },
          ],
        };
      }
      if (toolNamesOf(request).includes('write'))
        return results.length
          ? textStep('Wrote it.')
          : toolStep('write', { file_path: 'notes.txt', content: 'hello\n' });
      if (results.length) return { ...textStep('Found it.'), gate: search.promise };
      return toolStep('grep', { pattern: 'login' });
    });
    terminal.line('do both');
    await terminal.waitFor(/\[explore\] Slow search \.\.\. 1 tool/);
    const waiting = await terminal.waitFor(/Approve\? \[y\]es/);
    const lines = waiting.trimEnd().split('\n');
    const block = lines.findIndex((line) =>
      line.startsWith('Approval needed: [general-purpose] Write notes'),
    );
    // The task lines are above the block; nothing comes between the block and its prompt.
    expect(lines.slice(block)).toEqual([
      'Approval needed: [general-purpose] Write notes wants to run write (write)',
      '  notes.txt (new file)',
      '  @@ -1,0 +1,1 @@',
      '  +hello',
      expect.stringMatching(/^Approve\? \[y\]es/),
    ]);
    expect(lines.slice(0, block).join('\n')).toMatch(/\[explore\] Slow search \.\.\. 1 tool/);
    // Task lines redrawn meanwhile do not separate it from its prompt.
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(terminal.capture().trimEnd().split('\n').at(-1)).toMatch(/^Approve\? \[y\]es/);
    terminal.line('y');
    const answered = await terminal.waitFor(/Approved write\./);
    // Once answered, the block stays in the scrollback, followed by the answer.
    expect(answered).toMatch(/\+hello\nApprove\? \[y\]es.*: y\nApproved write\./);
    search.open();
    await terminal.waitFor(/Both done: 2 results\./);
  });
});
