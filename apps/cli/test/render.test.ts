import { initialTeamState } from '@troupe/core/internal';
import { describe, expect, it } from 'vitest';
import { approvalLines, inputLines } from '../src/render/approval-text.js';
import { colorsFor, createColors } from '../src/render/colors.js';
import { renderTable } from '../src/render/table.js';
import { finalLine, liveLine, type TaskView, toolSummary } from '../src/render/task-line.js';
import { teamLines } from '../src/render/team-view.js';
import { stripAnsi, truncate, visibleWidth, wrapVisible } from '../src/render/text.js';

const plain = createColors(false);
const view: TaskView = {
  taskId: 't1',
  agent: 'explore',
  description: 'Find auth code',
  status: 'running',
  toolCalls: 5,
  tokens: 12_345,
  elapsedMs: 3_000,
  updatedAt: 1_000,
  background: false,
};

describe('progress lines', () => {
  it('a running task counts on from its last update', () => {
    expect(liveLine(view, 1_200, plain)).toBe('[explore] Find auth code ... 5 tools, 3.2s');
    expect(liveLine({ ...view, lastTool: 'grep auth' }, 1_200, plain)).toBe(
      '[explore] Find auth code ... 5 tools, 3.2s · grep auth',
    );
  });

  it('queued and waiting tasks say so', () => {
    expect(liveLine({ ...view, status: 'queued', position: 2 }, 0, plain)).toBe(
      '[explore] Find auth code ... queued (#2)',
    );
    expect(
      liveLine({ ...view, status: 'awaitingApproval', approvalTool: 'bash', toolCalls: 1 }, 9_000, plain),
    ).toBe('[explore] Find auth code ... 1 tool, 3.0s · waiting for approval: bash');
  });

  it('finished lines carry tools, time and tokens', () => {
    const done = { ...view, status: 'completed' as const, toolCalls: 8, elapsedMs: 5_100, tokens: 12_000 };
    expect(finalLine(done, plain)).toBe('[explore] Find auth code - done (8 tools, 5.1s, 12k tokens)');
    expect(finalLine({ ...done, status: 'cancelled' }, plain)).toBe(
      '[explore] Find auth code - cancelled (8 tools, 5.1s, 12k tokens)',
    );
    expect(finalLine({ ...done, status: 'failed', terminateReason: 'MAX_TURNS' }, plain)).toBe(
      '[explore] Find auth code - failed, MAX_TURNS (8 tools, 5.1s, 12k tokens)',
    );
    expect(
      finalLine({ ...done, status: 'failed', terminateReason: 'ERROR', error: 'overloaded\nstack' }, plain),
    ).toBe('[explore] Find auth code - failed, ERROR: overloaded (8 tools, 5.1s, 12k tokens)');
  });

  it('tool summaries pick the telling field and cut it', () => {
    expect(toolSummary('read', { file_path: 'src/a.ts', limit: 3 })).toBe('read src/a.ts');
    expect(toolSummary('bash', { command: `echo ${'x'.repeat(100)}` })).toHaveLength(5 + 60);
    expect(toolSummary('ls', {})).toBe('ls');
    expect(toolSummary('mcp__github__create_issue', { repo: 'acme/app', title: 'Fix it' })).toBe(
      'mcp__github__create_issue acme/app',
    );
    expect(toolSummary('mcp__files__read_text_file', { head: 3, path: 'notes.txt' })).toBe(
      'mcp__files__read_text_file notes.txt',
    );
    expect(toolSummary('mcp__x__ping', { count: 3 })).toBe('mcp__x__ping');
    expect(toolSummary('web_fetch', { url: 'https://x' })).toBe('web_fetch');
  });
});

describe('colours', () => {
  it('only on a terminal, never with NO_COLOR or TERM=dumb', () => {
    expect(colorsFor({ isTTY: true }, {}).enabled).toBe(true);
    expect(colorsFor({ isTTY: false }, {}).enabled).toBe(false);
    expect(colorsFor({ isTTY: true }, { NO_COLOR: '' }).enabled).toBe(false);
    expect(colorsFor({ isTTY: true }, { TERM: 'dumb' }).enabled).toBe(false);
    const colors = createColors(true);
    expect(colors.red('x')).toBe('\x1b[31mx\x1b[39m');
    expect(colors.named('purple')('x')).toBe(colors.magenta('x'));
    expect(colors.named(undefined)('x')).toBe(colors.cyan('x'));
  });
});

describe('text', () => {
  it('cuts to visible width, keeping escape codes balanced', () => {
    const colors = createColors(true);
    const line = `${colors.cyan('[explore]')} ${'a'.repeat(30)}`;
    const cut = truncate(line, 15);
    expect(visibleWidth(cut)).toBe(15);
    expect(stripAnsi(cut)).toBe('[explore] aaaa…');
    expect(cut).toContain('\x1b[39m');
    expect(truncate('short', 10)).toBe('short');
  });

  it('tables pad to the widest cell and right-align numbers', () => {
    expect(
      renderTable(
        [{ header: 'NAME' }, { header: 'N', align: 'right' }],
        [
          ['a', '1'],
          ['long', '100'],
        ],
      ),
    ).toEqual(['NAME    N', '----  ---', 'a       1', 'long  100']);
  });
});

describe('approval text', () => {
  it('shows the agent, the tool and every field of its input, long text as a block', () => {
    const lines = approvalLines(
      {
        id: 'a1',
        taskId: 't1',
        agent: 'general-purpose',
        sessionKey: 's',
        description: 'Write notes',
        tool: 'write',
        access: 'write',
        toolUseId: 'u1',
        input: { file_path: 'notes.txt', content: 'line one\nline two\n', overwrite: true },
        background: true,
        requestedAt: 0,
      },
      plain,
    );
    expect(lines).toEqual([
      'Approval needed: [general-purpose] Write notes wants to run write (write) [background task]',
      '  file_path: notes.txt',
      '  content:',
      '    │ line one',
      '    │ line two',
      '  overwrite: true',
    ]);
    expect(inputLines('just text')).toEqual(['"just text"']);
  });
});

describe('wrapVisible', () => {
  it('cuts a long line into rows of the width, carrying its colour over', () => {
    expect(wrapVisible('short', 10)).toEqual(['short']);
    expect(wrapVisible('abcdefghij12345', 5)).toEqual(['abcde', 'fghij', '12345']);
    const red = createColors(true).red('abcdefg');
    const rows = wrapVisible(`  ${red}`, 5);
    expect(rows.map(stripAnsi)).toEqual(['  abc', 'defg']);
    expect(rows[0]).toBe('  \x1b[31mabc\x1b[0m');
    expect(rows[1]).toBe('\x1b[31mdefg\x1b[39m');
  });
});

describe('a team in full (/team)', () => {
  const state = initialTeamState('t_0123456789abcdef', {
    name: 'auth-review',
    lead: 'team-lead',
    members: [
      { name: 'team-lead', agent: 'general-purpose' },
      { name: 'alice', agent: 'explore' },
    ],
    sessionKey: 's',
    maxMessages: 100,
    tokenBudget: 1_000_000,
  });

  it('puts its summary on one line when it fits, and on two, each within the width, when it does not', () => {
    const wide = teamLines(state, plain, 120);
    expect(wide[0]).toBe(
      'Team auth-review (t_0123456789abcdef) · working · 0 messages · tasks 0/0 done · 0 tokens',
    );
    expect(wide[1]).toBe('');
    const narrow = teamLines(state, plain, 60);
    expect(narrow.slice(0, 2)).toEqual([
      'Team auth-review (t_0123456789abcdef) · working',
      '  0 messages · tasks 0/0 done · 0 tokens',
    ]);
    for (const line of teamLines(state, createColors(true), 60))
      expect(visibleWidth(line)).toBeLessThanOrEqual(60);
  });
});
