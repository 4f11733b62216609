// The scripted team job troupe's own team tests play (core's team tests, the inspector's team
// fixture, the team crash test): one definition, so they all run the same job.
import { type ScriptedTeamJob, scriptedTeamJob } from './team-job.js';

/**
 * A {@link scriptedTeamJob} of a lead and three teammates writing a report, with task
 * dependencies (#1 research → #2 draft → #3 write), a broadcast and plan approval. Its team needs
 * the agents `general-purpose` (the lead, `lead`), `explore` (alice and bob) and `writer` (carol,
 * who needs her plan approved, then saves the note "the report" with a `save` tool). It ends with
 * "The report is written.".
 */
export const reportTeamJob: ScriptedTeamJob = scriptedTeamJob({
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
