// The scripted team job troupe's own team tests play (core's team tests, the inspector's team
// fixture, the team crash test): one definition, so they all run the same job.
import type { AgentDefinition } from '../definitions/types.js';
import type { Tool } from '../tools/define-tool.js';
import { type ScriptedModel, scriptedModel } from './scripted-model.js';
import { type ScriptedTeamJob, scriptedTeamJob } from './team-job.js';
import { echoAndSaveTools } from './test-tools.js';

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

/**
 * What a runtime needs to play {@link reportTeamJob}, to spread into `createRuntime`'s options: a
 * scripted model answering with the job's replies, the agents its team names (`general-purpose`,
 * `explore` with no tools, `writer` with `save`) and the `save` tool (a write tool: give the runtime
 * `approval: 'auto'`, or answer its approvals).
 */
export function reportTeamCast(): { model: ScriptedModel; tools: Tool[]; agents: AgentDefinition[] } {
  const [, save] = echoAndSaveTools();
  return {
    model: scriptedModel((request) => reportTeamJob.reply(request)),
    tools: [save],
    agents: [
      { name: 'general-purpose', description: 'Leads.', systemPrompt: 'You lead.' },
      { name: 'explore', description: 'Reads.', systemPrompt: 'You explore.', tools: [] },
      { name: 'writer', description: 'Writes.', systemPrompt: 'You write.', tools: ['save'] },
    ],
  };
}
