// A scripted agent team job for tests: a lead and a chain of teammates, each member acting on what
// its conversation holds, so the job comes out the same whatever order (or process) its spells run in.
import type { ContentBlock, ModelRequest } from '../model/types.js';
import type { CreateTeamOptions } from '../teams/team-options.js';
import { callsOf, memberOf, receivedText } from './conversation.js';
import type { ScriptedReply } from './scripted-model.js';

/** A teammate of a {@link scriptedTeamJob}: its task of the chain and how it works on it. */
export interface TeamJobMember {
  /** Its member name in the team. */
  name: string;
  /** The agent definition it runs as. */
  agent: string;
  /** The subject and description of its task (task #n for the n-th member). */
  task: readonly [subject: string, description: string];
  /** What it says once its task is completed. */
  done: string;
  /**
   * Its plan needs the lead's approval: it first tries `save` (refused), sends this plan
   * (`ExitPlanMode`), and claims its task once approved and the task before is done.
   */
  plan?: string;
  /** The note it saves with the `save` tool once its task is claimed. */
  note?: string;
  /**
   * It makes one `save` call for its note whatever came of it (a write interrupted by a crash is
   * not written again). Otherwise it calls `save` again until one succeeds.
   */
  writeOnce?: boolean;
}

/** What {@link scriptedTeamJob} plans: the team's name, its lead, its prompt and its teammates in chain order. */
export interface TeamJobPlan {
  /** The team's name. */
  name: string;
  /** The lead's agent and member name. */
  lead: { agent: string; name: string };
  /** The team's prompt (given to the lead). */
  prompt: string;
  /** The teammates, in the order of their tasks' chain (the n-th works on task #n). */
  members: readonly TeamJobMember[];
}

/** A scripted team job: the options to create its team with, and the model's reply to any member's request. */
export interface ScriptedTeamJob {
  /** The options of `createTeam` for the job's team. */
  readonly options: CreateTeamOptions;
  /** The next reply for a request of any member (a `scriptedModel` script), read from its conversation. */
  reply(request: ModelRequest): ScriptedReply;
}

/**
 * A team job for a scripted model: the lead creates one task per teammate, each blocked by the one
 * before (#2 by #1, …), broadcasts them, and approves the plan of a teammate who needs approval; a
 * teammate without a plan claims its task at once (told why when it is blocked; it tries again, up
 * to three times, once the task before is done), works, completes it and tells the next teammate
 * (the last tells the lead), whose `#n done` ends the job with "The report is written.". Every
 * reply is read from the request's conversation, so a restored or replayed spell gets the same
 * moves; tool call ids are unique across processes.
 */
export function scriptedTeamJob(plan: TeamJobPlan): ScriptedTeamJob {
  const { members } = plan;
  let ids = 0;
  // Unique across processes too (a restored spell's new calls never reuse an id of its conversation).
  const run = Math.random().toString(36).slice(2, 8);
  const use = (name: string, input: unknown): ContentBlock => ({
    type: 'tool_use',
    id: `toolu_${name}_${run}_${++ids}`,
    name,
    input,
  });
  const reply = (...content: ContentBlock[]): ScriptedReply => ({ content, usage: { input: 20, output: 5 } });
  const say = (text: string): ScriptedReply => reply({ type: 'text', text });
  const planned = members.find((member) => member.plan !== undefined);

  function leadMove(request: ModelRequest): ScriptedReply {
    const calls = callsOf(request);
    const got = receivedText(request);
    const did = (name: string, match: (input: Record<string, unknown>) => boolean = () => true) =>
      calls.some((call) => call.name === name && match(call.input) && !call.isError);
    if (!did('TaskCreate'))
      return reply(
        ...members.map(({ task: [subject, description] }) => use('TaskCreate', { subject, description })),
      );
    if (members.length > 1 && !did('TaskUpdate'))
      return reply(
        ...members
          .slice(1)
          .map((_, index) =>
            use('TaskUpdate', { taskId: String(index + 2), addBlockedBy: [String(index + 1)] }),
          ),
      );
    if (!did('SendMessage', (input) => input.to === '*'))
      return reply(
        use('SendMessage', {
          to: '*',
          message: `Tasks are ready: ${members.map((member, index) => `${member.name} #${index + 1}`).join(', ')}.`,
          summary: 'tasks ready',
        }),
      );
    if (
      planned &&
      got.includes('plan_approval_request') &&
      !did('SendMessage', (input) => typeof input.message === 'object')
    )
      return reply(
        use('SendMessage', {
          to: planned.name,
          message: { type: 'plan_approval_response', request_id: 'p1', approve: true },
        }),
      );
    if (got.includes(`#${members.length} done`)) return say('The report is written.');
    return say('Waiting for the team.');
  }

  function memberMove(request: ModelRequest, member: TeamJobMember, index: number): ScriptedReply {
    const calls = callsOf(request);
    const got = receivedText(request);
    const did = (name: string, match: (input: Record<string, unknown>) => boolean = () => true) =>
      calls.some((call) => call.name === name && match(call.input) && !call.isError);
    const taskId = String(index + 1);
    const before = `#${index} done`;
    const claim = () => reply(use('TaskUpdate', { taskId, owner: member.name, status: 'in_progress' }));
    if (member.plan !== undefined) {
      if (!calls.some((call) => call.name === 'save')) return reply(use('save', { note: 'too early' }));
      if (!did('ExitPlanMode')) return reply(use('ExitPlanMode', { plan: member.plan }));
      const approved = got.includes('approved: you may now use');
      if (!approved || (index > 0 && !got.includes(before))) return say('Waiting.');
      if (!did('TaskUpdate', (input) => input.owner === member.name)) return claim();
    } else if (!did('TaskUpdate', (input) => input.owner === member.name)) {
      // It claims its task as soon as it hears of it: refused while the task before is not completed.
      const tried = calls.filter(
        (call) => call.name === 'TaskUpdate' && call.input.owner === member.name,
      ).length;
      if (index === 0 || tried === 0 || (got.includes(before) && tried < 3)) return claim();
      return say(`Waiting for #${index}.`);
    }
    if (member.note !== undefined) {
      const isNote = (input: Record<string, unknown>) => input.note === member.note;
      const saved = member.writeOnce
        ? calls.some((call) => call.name === 'save' && isNote(call.input))
        : did('save', isNote);
      if (!saved) return reply(use('save', { note: member.note }));
    }
    if (!did('TaskUpdate', (input) => input.status === 'completed'))
      return reply(
        use('TaskUpdate', { taskId, status: 'completed' }),
        use('SendMessage', { to: members[index + 1]?.name ?? plan.lead.name, message: `#${index + 1} done` }),
      );
    return say(member.done);
  }

  return {
    options: {
      name: plan.name,
      lead: plan.lead,
      prompt: plan.prompt,
      teammates: members.map(({ name, agent, plan: hasPlan }) => ({
        name,
        agent,
        ...(hasPlan !== undefined ? { planModeRequired: true } : {}),
      })),
    },
    reply(request) {
      const member = memberOf(request);
      if (member === plan.lead.name) return leadMove(request);
      const index = members.findIndex((candidate) => candidate.name === member);
      return index < 0 ? say(`unknown member ${member}`) : memberMove(request, members[index]!, index);
    },
  };
}
