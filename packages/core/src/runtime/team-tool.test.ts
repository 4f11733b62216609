import { describe, expect, it } from 'vitest';
import type { RuntimeEvents } from '../events.js';
import type { ModelRequest, ToolResultBlock } from '../model/types.js';
import { readTeam } from '../replay/replay-team.js';
import { callsOf, memberOf, receivedText } from '../testing/conversation.js';
import { textReply, toolReply } from '../testing/scripted-model.js';
import type { RuntimeOptions } from './runtime-options.js';
import { fixtureRuntime, hang } from './test-fixtures.js';

/** A fixture runtime whose main agents get the team tools (`teamTools`, off by default). */
function teamRuntime(script: Parameters<typeof fixtureRuntime>[0], options: Partial<RuntimeOptions> = {}) {
  return fixtureRuntime(script, { teamTools: true, ...options });
}

function lastResults(request: ModelRequest): ToolResultBlock[] {
  const content = request.messages.at(-1)!.content;
  return typeof content === 'string'
    ? []
    : (content.filter((block) => block.type === 'tool_result') as ToolResultBlock[]);
}

const teamCall = {
  team_name: 'auth-review',
  prompt: 'Review the auth code with alice.',
  teammates: [{ name: 'alice', subagent_type: 'explore' }],
};

/** The main agent creates a team; the lead asks alice, alice answers, the lead concludes. */
function script(main: (request: ModelRequest) => ReturnType<typeof textReply>) {
  return (request: ModelRequest) => {
    if (request.system.includes('main agent')) return main(request);
    const member = memberOf(request);
    const did = (name: string) => callsOf(request).some((call) => call.name === name);
    if (member === 'team-lead') {
      if (!did('SendMessage'))
        return toolReply('SendMessage', {
          to: 'alice',
          message: 'Where is login?',
          summary: 'where is login',
        });
      if (receivedText(request).includes('src/auth.ts')) return textReply('Login is in src/auth.ts.');
      return textReply('Waiting for alice.');
    }
    if (member === 'alice' && !did('SendMessage'))
      return toolReply('SendMessage', { to: 'team-lead', message: 'In src/auth.ts', summary: 'found it' });
    return textReply('Done.');
  };
}

describe('the main agent’s team tools', () => {
  it('are offered only with teamTools (as Claude Code, behind a flag): no two schemas more in every request', async () => {
    for (const teamTools of [false, true]) {
      const { runtime, model } = fixtureRuntime([textReply('ok')], { teamTools });
      await runtime.createSession({ sessionKey: 's' }).send('hi');
      const names = model.requests[0]!.tools.map((tool) => tool.name);
      expect(names.includes('TeamCreate'), `teamTools: ${teamTools}`).toBe(teamTools);
      expect(names.includes('TeamDelete')).toBe(teamTools);
    }
  });

  it('TeamCreate runs a team in the session and returns its outcome like a task’s; team.event follows it', async () => {
    const { runtime, model, store } = teamRuntime(
      script((request) =>
        lastResults(request).length
          ? textReply(`Team says: ${(lastResults(request)[0]!.content as string).split('\n')[0]}`)
          : toolReply('TeamCreate', teamCall),
      ),
    );
    const seen: RuntimeEvents['team.event'][] = [];
    runtime.on('team.event', (event) => seen.push(event));
    const session = runtime.createSession({ sessionKey: 's1' });
    const reply = await session.send('Review auth as a team.');
    expect(reply.text).toBe('Team says: Login is in src/auth.ts.');
    const answer = lastResults(model.requests.at(-1)!)[0]!.content as string;
    expect(answer).toMatch(
      /---\nteam_id: (\S+) · completed · members: team-lead \(general-purpose\), alice \(explore\) · 2 messages · 0\/0 tasks done · \d+ tokens$/,
    );
    const teamId = /team_id: (\S+)/.exec(answer)![1]!;
    // Every journaled event reached the runtime's listeners, in order, in the caller's session.
    expect(seen.every((event) => event.teamId === teamId && event.sessionKey === 's1')).toBe(true);
    expect(
      seen
        .filter((event) => event.event.type === 'team.message')
        .map((event) => event.state.messages.at(-1))
        .map((message) => `${message?.from} → ${message?.to}: ${message?.summary}`),
    ).toEqual(['team-lead → alice: where is login', 'alice → team-lead: found it']);
    expect(seen.at(-1)!.event.type).toBe('team.ended');
    // The stored team reads back the same.
    await store.flush();
    const stored = await readTeam(store, teamId);
    expect(stored.state.messages.map((message) => message.id)).toEqual(['m1', 'm2']);
    expect(stored.recorded?.status).toBe('completed');
  });

  it('TeamCreate refuses an unknown agent, and a team member’s own TeamCreate (teams do not nest)', async () => {
    let stage = 0;
    const { runtime, model } = teamRuntime(
      (request) => {
        if (request.system.includes('main agent')) {
          stage++;
          if (stage === 1)
            return toolReply('TeamCreate', {
              ...teamCall,
              teammates: [{ name: 'alice', subagent_type: 'nobody' }],
            });
          if (stage === 2) return toolReply('TeamCreate', teamCall);
          return textReply('ok');
        }
        // The lead tries to create a team of its own (it has the main tools when it may nest).
        const results = lastResults(request);
        return results.length ? textReply(results[0]!.content as string) : toolReply('TeamCreate', teamCall);
      },
      { limits: { maxDepth: 2 } },
    );
    await runtime.createSession({ sessionKey: 's1' }).send('go');
    const results = model.requests
      .filter((request) => request.system.includes('main agent'))
      .flatMap((request) => lastResults(request).map((block) => block.content as string));
    expect(results[0]).toMatch(/^Error: .*Unknown agent "nobody"/);
    expect(results[1]).toMatch(
      /^Error: a team member cannot create a team \(teams do not nest\)\.\n\n---\nteam_id: /,
    );
  });

  it('TeamCreate with run_in_background returns at once; TeamDelete stops the team; its end is announced', async () => {
    let stage = 0;
    const { runtime } = teamRuntime((request, { signal }) => {
      if (!request.system.includes('main agent')) return hang(signal);
      stage++;
      if (stage === 1) return toolReply('TeamCreate', { ...teamCall, run_in_background: true });
      if (stage === 2) {
        const id = /Started team (\S+)/.exec(lastResults(request)[0]!.content as string)![1]!;
        return toolReply('TeamDelete', { team_id: id });
      }
      return textReply(
        `main saw: ${(lastResults(request)[0]?.content as string | undefined) ?? 'no result'}`,
      );
    });
    const announced: string[] = [];
    runtime.on('task.announced', (event) => announced.push(event.message));
    const reply = await runtime.createSession({ sessionKey: 's1' }).send('go');
    expect(reply.text).toMatch(/^main saw: Team t_\S+ is stopping: its members' work is cancelled\.$/);
    await expect.poll(() => announced.length).toBe(1);
    expect(announced[0]).toMatch(/The background work "team auth-review" was cancelled/);
  });
});
