import * as v from 'valibot';
import { TroupeError } from '../errors.js';
import type { RuntimeEventName, RuntimeEvents } from '../events.js';
import type { CreateTeamOptions, TeamHandle, TeamResult } from '../teams/index.js';
import { defineTool, type Tool, type ToolContext } from '../tools/define-tool.js';
import { refusedAgent } from './agent-task-fields.js';
import { announcement } from './announcement.js';
import type { TaskRun } from './task-run.js';

/** What the main agent's team tools need from the runtime. */
export interface TeamToolRuntime {
  readonly agents: { get(name: string): { name: string } | undefined };
  readonly clock: { now(): number };
  createTeam(options: CreateTeamOptions): Promise<TeamHandle>;
  team(teamId: string): TeamHandle | undefined;
  runOf(taskId: string): TaskRun | undefined;
  emit<TName extends RuntimeEventName>(name: TName, event: RuntimeEvents[TName]): void;
}

const name = v.pipe(v.string(), v.regex(/^[a-z0-9][a-z0-9-]{0,39}$/, 'lowercase letters, digits, hyphens'));

/**
 * Claude Code's `TeamCreate` and `TeamDelete` for the main agent. `TeamCreate` starts an agent
 * team (`runtime.createTeam`: a lead and named teammates that message each other and share a task
 * list) in the caller's session and, like `task`, returns the team's outcome (the lead's last
 * answer) when it ends, or at once with `run_in_background` (the outcome is announced into the
 * session). `TeamDelete` stops a team of the session. A team member cannot create a team.
 */
export function createTeamTools(runtime: TeamToolRuntime): Tool[] {
  const agentName = (agent: string) => runtime.agents.get(agent)?.name;
  const teamCreate = defineTool({
    name: 'TeamCreate',
    description:
      'Starts an agent team: a lead and named teammates (each a sub-agent type) that message each other (SendMessage) and share a task list with dependencies. The lead works on `prompt` and coordinates; the team ends when nobody works and no message waits, and its outcome (the lead’s last answer) is returned like a task’s. Use a team only when the workers must talk to each other; for independent work use task.',
    access: 'read',
    input: v.object({
      team_name: v.pipe(name, v.description('A short name for the team, e.g. auth-review.')),
      description: v.optional(v.string()),
      prompt: v.pipe(
        v.string(),
        v.minLength(1),
        v.description('The job, given to the lead; it sees nothing else.'),
      ),
      lead_agent: v.optional(
        v.pipe(v.string(), v.description('The lead’s sub-agent type (default general-purpose).')),
      ),
      teammates: v.pipe(
        v.array(
          v.object({
            name: v.pipe(name, v.description('The name the others address it by.')),
            subagent_type: v.string(),
            prompt: v.optional(
              v.pipe(v.string(), v.description('Its first task; without one it waits for a message.')),
            ),
            plan_mode_required: v.optional(v.boolean()),
          }),
        ),
        v.minLength(1),
      ),
      run_in_background: v.optional(v.boolean()),
    }),
    async execute(input, context) {
      const spec = runtime.runOf(context.taskId)?.spec;
      if (spec?.team) return 'Error: a team member cannot create a team (teams do not nest).';
      const lead = input.lead_agent ?? 'general-purpose';
      for (const agent of [lead, ...input.teammates.map((teammate) => teammate.subagent_type)]) {
        const refusal = refusedAgent(spec, agent, agentName);
        if (refusal) return `Error: ${refusal}`;
      }
      const sessionKey = spec?.sessionKey ?? context.sessionKey ?? 'default';
      const startedAt = runtime.clock.now();
      let team: TeamHandle;
      try {
        team = await runtime.createTeam({
          name: input.team_name,
          lead: lead,
          prompt: input.description ? `${input.description}\n\n${input.prompt}` : input.prompt,
          sessionKey,
          teammates: input.teammates.map((teammate) => ({
            name: teammate.name,
            agent: teammate.subagent_type,
            ...(teammate.prompt ? { prompt: teammate.prompt } : {}),
            ...(teammate.plan_mode_required ? { planModeRequired: true } : {}),
          })),
        });
      } catch (error) {
        if (error instanceof TroupeError) return `Error: ${error.message}`;
        throw error;
      }
      if (input.run_in_background) {
        void announceWhenDone(runtime, team, input.team_name, sessionKey, startedAt);
        return `Started team ${team.id} ("${input.team_name}") in the background. You will be told when it finishes; stop it with TeamDelete.`;
      }
      return teamAnswer(await foregroundTeam(team, context));
    },
  });

  const teamDelete = defineTool({
    name: 'TeamDelete',
    description: 'Stops a team of this session: every member’s work is cancelled and the team ends.',
    access: 'read',
    input: v.object({ team_id: v.pipe(v.string(), v.minLength(1)) }),
    execute({ team_id }, context) {
      const sessionKey = runtime.runOf(context.taskId)?.spec.sessionKey ?? context.sessionKey ?? 'default';
      const team = runtime.team(team_id);
      if (!team || team.state().config.sessionKey !== sessionKey)
        return `Error: no team with id "${team_id}" in this session.`;
      const ended = team.state().ended;
      if (ended) return `Team ${team_id} had already ended (${ended.status}).`;
      team.cancel('Stopped by the main agent (TeamDelete).');
      return `Team ${team_id} is stopping: its members' work is cancelled.`;
    },
  });
  return [teamCreate, teamDelete];
}

/** The team's result; the team is cancelled when the calling agent is (its `signal` aborts). */
async function foregroundTeam(team: TeamHandle, context: ToolContext): Promise<TeamResult> {
  const onAbort = () => team.cancel('The calling agent was cancelled.');
  context.signal.addEventListener('abort', onAbort, { once: true });
  try {
    return await team.result;
  } finally {
    context.signal.removeEventListener('abort', onAbort);
  }
}

/** The text `TeamCreate` returns: the lead's answer, then a footer with the team's numbers. */
export function teamAnswer(result: TeamResult): string {
  const output = typeof result.output === 'string' ? result.output : (JSON.stringify(result.output) ?? '');
  const lines: string[] = [];
  if (result.status === 'completed') lines.push(output || '(The team finished without an answer.)');
  else {
    lines.push(
      `The team did not finish (${result.status}, ${result.terminateReason})${result.message ? `: ${result.message}` : '.'}`,
    );
    if (output) lines.push(`The lead's last answer:\n${output}`);
  }
  const done = result.tasks.filter((task) => task.status === 'completed').length;
  const tasks = result.tasks.filter((task) => task.status !== 'deleted').length;
  const members = result.members.map((member) => `${member.name} (${member.agent})`).join(', ');
  lines.push(
    `---\nteam_id: ${result.teamId} · ${result.status} · members: ${members} · ${result.messages.length} messages · ${done}/${tasks} tasks done · ${result.usage.total} tokens`,
  );
  return lines.join('\n\n');
}

/** When a background team ends, its outcome is announced into its session, as a background task's is. */
async function announceWhenDone(
  runtime: TeamToolRuntime,
  team: TeamHandle,
  label: string,
  sessionKey: string,
  startedAt: number,
): Promise<void> {
  // Loaded now, so the announcement follows the team's end without waiting for a module.
  const documents = import('../teams/team-documents.js');
  const [result, { teamTaskResult }] = await Promise.all([team.result, documents]);
  const taskResult = teamTaskResult(result, runtime.clock.now() - startedAt);
  taskResult.usage = { ...result.usage };
  const description = `team ${label}`;
  runtime.emit('task.announced', {
    taskId: team.id,
    agent: 'team',
    sessionKey,
    description,
    at: runtime.clock.now(),
    toolCalls: 0,
    turns: taskResult.turns,
    elapsedMs: taskResult.durationMs,
    tokens: result.usage.total,
    depth: 1,
    result: taskResult,
    message: announcement({ description }, taskResult),
  });
}
