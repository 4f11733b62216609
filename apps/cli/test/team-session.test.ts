import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FakeAnthropicServer } from '../../../test/fake-anthropic/index.js';
import { cleanEnv, fixtureProject, tempDir } from './helpers/cli.js';
import { runCliInProcess } from './helpers/cli-in-process.js';
import { fakeEnv, startFakeClaude } from './helpers/fake-claude.js';
import { teamScenario } from './helpers/team-claude.js';

let server: FakeAnthropicServer;

beforeEach(async () => {
  server = await startFakeClaude(teamScenario());
});

afterEach(async () => {
  await server.close();
});

/** The lines of `text` that contain each of `parts`, in that order (a failure names the missing one). */
function inOrder(text: string, parts: readonly string[]): void {
  let from = 0;
  for (const part of parts) {
    const at = text.indexOf(part, from);
    expect(at, `"${part}" after position ${from} in:\n${text}`).toBeGreaterThanOrEqual(0);
    from = at + part.length;
  }
}

describe('agent teams in the CLI', () => {
  it('offers TeamCreate only with CLAUDE_CODE_EXPERIMENTAL_AGENT_TEAMS set (as Claude Code)', async () => {
    const home = tempDir('home');
    const off = await runCliInProcess(['run', 'review the login code as a team'], {
      cwd: fixtureProject(),
      env: cleanEnv(home, fakeEnv(server)),
    });
    expect(off.stdout).not.toContain('team started');
    expect(server.requests[0]!.body.tools.map((tool: { name: string }) => tool.name)).not.toContain(
      'TeamCreate',
    );
  });

  it('a session shows the team the main agent starts: members, each message in order, and /team', async () => {
    const run = await runCliInProcess([], {
      cwd: fixtureProject(),
      env: cleanEnv(tempDir('home'), { ...fakeEnv(server), CLAUDE_CODE_EXPERIMENTAL_AGENT_TEAMS: '1' }),
      input: 'review the login code as a team\n/team\n',
    });
    expect(run.code).toBe(0);
    const out = run.stdout;
    inOrder(out, [
      '[auth-review] team started: team-lead (general-purpose), alice (explore) · t_',
      '[auth-review] task #1 added: Find the login code',
      '[auth-review] task #1 pending, owner alice: Find the login code',
      '[auth-review] team-lead → alice: find login (#1)',
      '[auth-review] task #1 in_progress, owner alice: Find the login code',
      '[auth-review] task #1 completed, owner alice: Find the login code',
      '[auth-review] alice → team-lead: found it in src/auth.js',
      '[auth-review] team completed: 2 messages',
      'Summary: Login is in src/auth.js.',
      // /team: the team, its members, its messages and its task board.
      'Team auth-review (t_',
      'completed (GOAL) · 2 messages · tasks 1/1 done',
      'Members',
      'team-lead  general-purpose  idle',
      'tokens (lead)',
      'alice      explore          idle',
      'Messages (2)',
      'm1   team-lead → alice: find login (#1)',
      'm2   alice → team-lead: found it in src/auth.js',
      'Tasks',
      'ID  SUBJECT              OWNER  STATUS     BLOCKED BY',
      '--',
      '#1  Find the login code  alice  completed  -',
    ]);
    // Each member's spell is a task line too (plain output shows every step).
    expect(out).toMatch(/\[explore\] alice \(team auth-review\) ... grep login/);
  });
});

describe('a stored team in the CLI', () => {
  it('troupe run shows the team; tasks list and show read it as a team; replay reproduces it exactly', async () => {
    const cwd = fixtureProject();
    const env = cleanEnv(tempDir('home'), { ...fakeEnv(server), CLAUDE_CODE_EXPERIMENTAL_AGENT_TEAMS: '1' });
    const run = await runCliInProcess(['run', 'review the login code as a team'], { cwd, env });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('Summary: Login is in src/auth.js.\n');
    inOrder(run.stderr, [
      '[auth-review] team started: team-lead (general-purpose), alice (explore)',
      '[auth-review] team-lead → alice: find login (#1)',
      '[auth-review] alice → team-lead: found it in src/auth.js',
      '[auth-review] team completed: 2 messages',
    ]);
    const teamId = /· (t_\w+)/.exec(run.stderr)![1]!;

    // History: the team is one row, agent "team", its members' work summed; its spells are rows too.
    const list = await runCliInProcess(['tasks', 'list'], { cwd, env });
    const row = list.stdout.split('\n').find((line) => line.startsWith(`${teamId} `))!;
    expect(row).toMatch(/team\s+auth-review: team-lead, alice\s+completed\s+7\s+\S+\s+[\d.]+k/);
    expect(list.stdout).toContain(`${teamId}-alice-1`);

    const show = await runCliInProcess(['tasks', 'show', teamId.slice(0, 12)], { cwd, env });
    expect(show.code).toBe(0);
    inOrder(show.stdout, [
      // Wider than the 100 columns of a pipe: on two lines.
      `Team auth-review (${teamId}) · completed (GOAL)`,
      '  2 messages · tasks 1/1 done',
      'Members',
      'team-lead  general-purpose  idle',
      'alice      explore          idle',
      'Messages (2)',
      'm1   team-lead → alice: find login (#1)',
      'm2   alice → team-lead: found it in src/auth.js',
      '#1  Find the login code  alice  completed  -',
      'Spells (3)',
      `${teamId}-team-lead-1  team-lead  completed (GOAL)`,
      `${teamId}-alice-1  alice  completed (GOAL)`,
      `${teamId}-team-lead-2  team-lead  completed (GOAL)`,
      'Outcome (the lead’s last answer)',
      'Login is in src/auth.js.',
      `Replay it: troupe replay ${teamId}`,
    ]);
    expect(show.stdout).not.toContain('Transcript');

    const replay = await runCliInProcess(['replay', teamId], { cwd, env });
    expect(replay.code).toBe(0);
    inOrder(replay.stdout, [
      `Replaying team ${teamId} auth-review (team-lead, alice)`,
      `works      team-lead (${teamId}-team-lead-1)`,
      'message    team-lead → alice: find login (#1)',
      `works      alice (${teamId}-alice-1) with m1`,
      'message    alice → team-lead: found it in src/auth.js',
      'ended      completed (GOAL)',
      `${teamId}-alice-1  alice`,
      '✓ exact',
      'Final: completed (GOAL) · 2 messages · 1 tasks',
      '✓ reproduced exactly',
    ]);
  });
});
