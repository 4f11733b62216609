import * as v from 'valibot';
import { defineTool, type Tool } from '../tools/define-tool.js';
import type { TeamToolRuntime } from './team-tool-run.js';

const TeamCreateSchema = v.object({
  // Names are checked where the team is made (`createTeam`): its error is the tool's answer.
  team_name: v.string(),
  description: v.optional(v.string()),
  prompt: v.pipe(v.string(), v.minLength(1), v.description('The job, given to the lead.')),
  lead_agent: v.optional(v.string()),
  teammates: v.pipe(
    v.array(
      v.object({
        name: v.string(),
        subagent_type: v.string(),
        prompt: v.optional(v.string()),
        plan_mode_required: v.optional(v.boolean()),
      }),
    ),
    v.minLength(1),
  ),
  run_in_background: v.optional(v.boolean()),
});

/**
 * Claude Code's `TeamCreate` and `TeamDelete` for the main agent. `TeamCreate` starts an agent
 * team (`runtime.createTeam`: a lead and named teammates that message each other and share a task
 * list) in the caller's session and, like `task`, returns the team's outcome (the lead's last
 * answer) when it ends, or at once with `run_in_background` (the outcome is announced into the
 * session). `TeamDelete` stops a team of the session. A team member cannot create a team. Their
 * work is in `team-tool-run.ts`, loaded at the first call.
 */
export function createTeamTools(runtime: TeamToolRuntime): Tool[] {
  const teamCreate = defineTool({
    name: 'TeamCreate',
    description:
      'Starts an agent team: a lead (lead_agent, default general-purpose) and named teammates (lowercase names; a teammate without a prompt waits for a message) that message each other and share a task list. The lead works on `prompt`; the team’s outcome (the lead’s last answer) is returned like a task’s. Only for work where the agents must talk to each other.',
    access: 'read',
    input: TeamCreateSchema,
    execute: async (input, context) =>
      (await import('./team-tool-run.js')).runTeamCreate(runtime, input, context),
  });
  const teamDelete = defineTool({
    name: 'TeamDelete',
    description: 'Stops a team of this session.',
    access: 'read',
    input: v.object({ team_id: v.pipe(v.string(), v.minLength(1)) }),
    execute: async ({ team_id }, context) =>
      (await import('./team-tool-run.js')).runTeamDelete(runtime, team_id, context),
  });
  return [teamCreate, teamDelete];
}
