import * as v from 'valibot';
import { defineTool, type Tool } from '../tools/define-tool.js';
import type { TeamToolRuntime } from './team-tool-run.js';

const name = v.pipe(v.string(), v.regex(/^[a-z0-9][a-z0-9-]{0,39}$/, 'lowercase letters, digits, hyphens'));

const TeamCreateSchema = v.object({
  team_name: v.pipe(name, v.description('A short name, e.g. auth-review.')),
  description: v.optional(v.string()),
  prompt: v.pipe(v.string(), v.minLength(1), v.description('The job, given to the lead.')),
  lead_agent: v.optional(v.pipe(v.string(), v.description('Default general-purpose.'))),
  teammates: v.pipe(
    v.array(
      v.object({
        name,
        subagent_type: v.string(),
        prompt: v.optional(v.pipe(v.string(), v.description('Without one it waits for a message.'))),
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
      'Starts an agent team: a lead and named teammates (sub-agent types) that message each other and share a task list. The lead works on `prompt`; the team’s outcome (the lead’s last answer) is returned like a task’s. Only for work where the agents must talk to each other.',
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
