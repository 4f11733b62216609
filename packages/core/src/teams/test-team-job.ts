// The scripted team job of core's team tests (not exported from the package): a lead and three
// teammates write a report with task dependencies (#1 research → #2 draft → #3 write) and plan
// approval (carol, the writer). See `scriptedTeamJob` for how each member acts.
import { scriptedTeamJob } from '../testing/team-job.js';

export { callsOf, memberOf, receivedText } from '../testing/conversation.js';

const job = scriptedTeamJob({
  name: 'report',
  lead: { agent: 'general-purpose', name: 'lead' },
  prompt: 'Write the report with your team.',
  members: [
    { name: 'alice', agent: 'explore', task: ['Research', 'Find the facts.'], done: 'Research done.' },
    { name: 'bob', agent: 'explore', task: ['Draft', 'Draft the report.'], done: 'Draft done.' },
    {
      name: 'carol',
      agent: 'writer',
      task: ['Write', 'Write the report.'],
      plan: 'Write the report from the draft.',
      note: 'the report',
      done: 'Report written.',
    },
  ],
});

/** The lead's and the teammates' moves: the next reply for a request, from its conversation. */
export const teamJobReply = job.reply;

/** The team of the job: the lead and alice, bob (explore) and carol (writer, plan approval). */
export const teamJobOptions = job.options;
