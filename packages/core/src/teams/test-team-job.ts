// A scripted team job for the teams' tests (not exported from the package): a lead and three
// teammates write a report with task dependencies (#1 research → #2 draft → #3 write) and plan
// approval (carol, the writer). Each member acts on what its conversation holds, so the job comes
// out the same whatever order the spells run in.
import type { ContentBlock, ModelRequest } from '../model/types.js';
import type { ScriptedReply } from '../testing/scripted-model.js';

/** One tool call a member made in its conversation, with the result it got. */
interface SeenCall {
  name: string;
  input: Record<string, unknown>;
  result: string;
  isError: boolean;
}

/** The member a request is for (its first message introduces it). */
export function memberOf(request: ModelRequest): string {
  const first = request.messages[0]?.content;
  const text =
    typeof first === 'string'
      ? first
      : first?.map((block) => (block.type === 'text' ? block.text : '')).join('');
  return /You are "([a-z0-9-]+)"/.exec(text ?? '')?.[1] ?? 'unknown';
}

/** Every tool call of the conversation with its result, in order. */
export function callsOf(request: ModelRequest): SeenCall[] {
  const results = new Map<string, { text: string; isError: boolean }>();
  for (const message of request.messages)
    if (message.role === 'user' && typeof message.content !== 'string')
      for (const block of message.content)
        if (block.type === 'tool_result')
          results.set(block.tool_use_id, {
            text:
              typeof block.content === 'string'
                ? block.content
                : block.content.map((part) => ('text' in part ? part.text : '')).join(''),
            isError: block.is_error === true,
          });
  const calls: SeenCall[] = [];
  for (const message of request.messages)
    if (message.role === 'assistant' && typeof message.content !== 'string')
      for (const block of message.content)
        if (block.type === 'tool_use') {
          const result = results.get(block.id);
          calls.push({
            name: block.name,
            input: block.input as Record<string, unknown>,
            result: result?.text ?? '',
            isError: result?.isError ?? false,
          });
        }
  return calls;
}

/** The text of every user message (the messages a member received). */
export function receivedText(request: ModelRequest): string {
  return request.messages
    .filter((message) => message.role === 'user')
    .map((message) =>
      typeof message.content === 'string'
        ? message.content
        : message.content.map((block) => (block.type === 'text' ? block.text : '')).join('\n'),
    )
    .join('\n');
}

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

/** The lead's and the teammates' moves: the next reply for a request, from its conversation. */
export function teamJobReply(request: ModelRequest): ScriptedReply {
  const member = memberOf(request);
  const calls = callsOf(request);
  const got = receivedText(request);
  const did = (name: string, match: (input: Record<string, unknown>) => boolean = () => true) =>
    calls.some((call) => call.name === name && match(call.input) && !call.isError);
  switch (member) {
    case 'lead': {
      if (!did('TaskCreate'))
        return reply(
          use('TaskCreate', { subject: 'Research', description: 'Find the facts.' }),
          use('TaskCreate', { subject: 'Draft', description: 'Draft the report.' }),
          use('TaskCreate', { subject: 'Write', description: 'Write the report.' }),
        );
      if (!did('TaskUpdate'))
        return reply(
          use('TaskUpdate', { taskId: '2', addBlockedBy: ['1'] }),
          use('TaskUpdate', { taskId: '3', addBlockedBy: ['2'] }),
        );
      if (!did('SendMessage', (input) => input.to === '*'))
        return reply(
          use('SendMessage', {
            to: '*',
            message: 'Tasks are ready: alice #1, bob #2, carol #3.',
            summary: 'tasks ready',
          }),
        );
      if (
        got.includes('plan_approval_request') &&
        !did('SendMessage', (input) => typeof input.message === 'object')
      )
        return reply(
          use('SendMessage', {
            to: 'carol',
            message: { type: 'plan_approval_response', request_id: 'p1', approve: true },
          }),
        );
      if (got.includes('#3 done')) return say('The report is written.');
      return say('Waiting for the team.');
    }
    case 'alice': {
      if (!did('TaskUpdate', (input) => input.owner === 'alice'))
        return reply(use('TaskUpdate', { taskId: '1', owner: 'alice', status: 'in_progress' }));
      if (!did('TaskUpdate', (input) => input.status === 'completed'))
        return reply(
          use('TaskUpdate', { taskId: '1', status: 'completed' }),
          use('SendMessage', { to: 'bob', message: '#1 done' }),
        );
      return say('Research done.');
    }
    case 'bob': {
      // Bob tries to claim #2 as soon as he hears of it: refused until #1 is completed.
      if (!did('TaskUpdate', (input) => input.owner === 'bob')) {
        const tried = calls.filter((call) => call.name === 'TaskUpdate' && call.input.owner === 'bob').length;
        if (tried === 0 || (got.includes('#1 done') && tried < 3))
          return reply(use('TaskUpdate', { taskId: '2', owner: 'bob', status: 'in_progress' }));
        return say('Waiting for #1.');
      }
      if (!did('TaskUpdate', (input) => input.status === 'completed'))
        return reply(
          use('TaskUpdate', { taskId: '2', status: 'completed' }),
          use('SendMessage', { to: 'carol', message: '#2 done' }),
        );
      return say('Draft done.');
    }
    case 'carol': {
      if (!calls.some((call) => call.name === 'save')) return reply(use('save', { note: 'too early' }));
      if (!did('ExitPlanMode'))
        return reply(use('ExitPlanMode', { plan: 'Write the report from the draft.' }));
      const approved = got.includes('approved: you may now use');
      if (!approved || !got.includes('#2 done')) return say('Waiting.');
      if (!did('TaskUpdate', (input) => input.owner === 'carol'))
        return reply(use('TaskUpdate', { taskId: '3', owner: 'carol', status: 'in_progress' }));
      if (!did('save')) return reply(use('save', { note: 'the report' }));
      if (!did('TaskUpdate', (input) => input.status === 'completed'))
        return reply(
          use('TaskUpdate', { taskId: '3', status: 'completed' }),
          use('SendMessage', { to: 'lead', message: '#3 done' }),
        );
      return say('Report written.');
    }
    default:
      return say(`unknown member ${member}`);
  }
}

/** The team of the job: the lead and alice, bob (explore) and carol (writer, plan approval). */
export const teamJobOptions = {
  name: 'report',
  lead: { agent: 'general-purpose', name: 'lead' },
  prompt: 'Write the report with your team.',
  teammates: [
    { name: 'alice', agent: 'explore' },
    { name: 'bob', agent: 'explore' },
    { name: 'carol', agent: 'writer', planModeRequired: true },
  ],
};
