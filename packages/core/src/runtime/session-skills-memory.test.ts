import { describe, expect, it } from 'vitest';
import type { ModelRequest } from '../model/types.js';
import type { Skill } from '../skills/skill.js';
import { textReply, toolReply } from '../testing/scripted-model.js';
import { fixtureRuntime, memoryOfFiles, turnOf } from './test-fixtures.js';

const skills: Skill[] = [
  { name: 'deploy', description: 'How to deploy this project.', content: 'Run make deploy, never by hand.' },
  { name: 'style-guide', description: 'Code style.', content: 'Always use tabs.' },
];
const toolNames = (request: ModelRequest) => request.tools.map((tool) => tool.name);
const text = (request: ModelRequest) => JSON.stringify(request.messages);

describe("a session's main agent and skills (Claude Code's Skill tool)", () => {
  it('sees every skill by name and description and loads one in full with the skill tool; sub-agents do not get it', async () => {
    const { runtime, model } = fixtureRuntime(
      (request) => {
        if (request.agent === 'explore') return textReply('explored');
        if (turnOf(request) === 1) return toolReply('skill', { skill: 'deploy' });
        if (turnOf(request) === 2)
          return toolReply('task', { description: 'look', prompt: 'Look', subagent_type: 'explore' });
        return textReply('deployed');
      },
      { skills },
    );
    const session = runtime.createSession({ sessionKey: 's' });
    expect((await session.send('Deploy it')).text).toBe('deployed');
    const [first, second] = model.requests.filter((request) => request.agent !== 'explore');
    const skillTool = first!.tools.find((tool) => tool.name === 'skill');
    expect(skillTool?.description).toContain(
      '- deploy: How to deploy this project.\n- style-guide: Code style.',
    );
    // The skill's whole text comes back as the tool's result; the system prompt does not carry it.
    expect(text(second!)).toContain('<skill name=\\"deploy\\">\\nRun make deploy, never by hand.\\n</skill>');
    expect(first!.system).not.toContain('Run make deploy');
    const explore = model.requests.find((request) => request.agent === 'explore')!;
    expect(toolNames(explore)).not.toContain('skill');
  });

  it("is left out when the main agent's tools do not name it, or the runtime has no skills", async () => {
    const restricted = fixtureRuntime([textReply('ok')], {
      skills,
      agents: [
        { name: 'main', description: 'Main.', systemPrompt: 'You are the main agent.', tools: ['echo'] },
      ],
    });
    await restricted.runtime.createSession().send('Hi');
    expect(toolNames(restricted.model.requests[0]!)).toEqual(['echo']);
    const allowed = fixtureRuntime([textReply('ok')], {
      skills,
      agents: [
        {
          name: 'main',
          description: 'Main.',
          systemPrompt: 'You are the main agent.',
          tools: ['echo', 'Skill'],
        },
      ],
    });
    await allowed.runtime.createSession().send('Hi');
    expect(toolNames(allowed.model.requests[0]!)).toEqual(['echo', 'skill']);
    const none = fixtureRuntime([textReply('ok')]);
    await none.runtime.createSession().send('Hi');
    expect(toolNames(none.model.requests[0]!)).not.toContain('skill');
  });

  it('answers an unknown skill with an error naming the skills there are', async () => {
    const { runtime, model } = fixtureRuntime(
      (request) => (turnOf(request) === 1 ? toolReply('skill', { skill: 'nope' }) : textReply('ok')),
      { skills },
    );
    await runtime.createSession().send('Hi');
    expect(text(model.requests[1]!)).toContain(
      'No skill named \\"nope\\". The skills are: deploy, style-guide.',
    );
  });
});

describe("a session's main agent with agent memory", () => {
  it('is told its MEMORY.md when a conversation starts (not at every message), and updates it with its memory tools', async () => {
    const { files, memory } = memoryOfFiles('- the build needs Node 20');
    const { runtime, model } = fixtureRuntime(
      (request) =>
        turnOf(request) === 1 && text(request).includes('Remember')
          ? toolReply('memory_write', { file_path: 'MEMORY.md', content: '- the build needs Node 22' })
          : textReply('ok'),
      {
        memory,
        agents: [
          {
            name: 'lead',
            description: 'The main agent.',
            systemPrompt: 'You are the main agent.',
            tools: ['echo'],
            memory: 'project',
          },
        ],
      },
    );
    const session = runtime.createSession({ agent: 'lead' });
    const replies = await Promise.all([session.send('Remember: Node 22'), session.send('And then?')]);
    expect(replies.map((reply) => reply.text)).toEqual(['ok', 'ok']);
    const first = model.requests[0]!;
    expect(text(first)).toContain('/memory/project/lead/');
    expect(text(first)).toContain('the build needs Node 20');
    expect(toolNames(first)).toEqual(['echo', 'memory_write']);
    expect(files.get('MEMORY.md')).toBe('- the build needs Node 22');
    // The second message is answered in order, without a second briefing.
    const last = model.requests.at(-1)!;
    expect(JSON.stringify(last.messages.at(-1))).toContain('And then?');
    expect(text(last).split('/memory/project/lead/').length).toBe(2);
    // A new conversation is told the memory as it is now.
    expect(session.clear()).toBe(true);
    await session.send('Hello again');
    expect(text(model.requests.at(-1)!)).toContain('the build needs Node 22');
  });

  it('a main agent without memory starts each message at once, as before', async () => {
    const { runtime } = fixtureRuntime([textReply('ok')], {
      memory: { folder: () => '/m', readIndex: async () => 'x', tools: () => [] },
    });
    const session = runtime.createSession();
    const reply = session.send('Hi');
    expect(session.isBusy).toBe(true);
    await reply;
  });
});
