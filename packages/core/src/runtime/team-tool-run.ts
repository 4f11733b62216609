import { TroupeError } from '../errors.js';
import type { RuntimeEventName, RuntimeEvents } from '../events.js';
import type { CreateTeamOptions, TeamHandle, TeamResult } from '../teams/index.js';
import type { ToolContext } from '../tools/define-tool.js';
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
  /** Tells the runtime's listeners of an event (a team's end, announced). */
  report<TName extends RuntimeEventName>(name: TName, event: RuntimeEvents[TName]): void;
}

/** A `TeamCreate` call's input (checked by the tool's schema, `team-tool.ts`). */
export interface TeamCreateInput {
  team_name: string;
  description?: string | undefined;
  prompt: string;
  lead_agent?: string | undefined;
  teammates: {
    name: string;
    subagent_type: string;
    prompt?: string | undefined;
    plan_mode_required?: boolean | undefined;
  }[];
  run_in_background?: boolean | undefined;
}

// The main agent's team tools at work: loaded at their first call, so a runtime that never starts a
// team (a browser app's) does not carry this in its first bundle. See `team-tool.ts`.

/** Runs a `TeamCreate` call: starts the team, then waits for its outcome (or announces it later). */
export async function runTeamCreate(
  runtime: TeamToolRuntime,
  input: TeamCreateInput,
  context: ToolContext,
): Promise<string> {
  const agentName = (agent: string) => runtime.agents.get(agent)?.name;
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
}

/** Runs a `TeamDelete` call: stops a team of the caller's session. */
export function runTeamDelete(runtime: TeamToolRuntime, teamId: string, context: ToolContext): string {
  const sessionKey = runtime.runOf(context.taskId)?.spec.sessionKey ?? context.sessionKey ?? 'default';
  const team = runtime.team(teamId);
  if (!team || team.state().config.sessionKey !== sessionKey)
    return `Error: no team with id "${teamId}" in this session.`;
  const ended = team.state().ended;
  if (ended) return `Team ${teamId} had already ended (${ended.status}).`;
  team.cancel('Stopped by the main agent (TeamDelete).');
  return `Team ${teamId} is stopping: its members' work is cancelled.`;
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
  runtime.report('task.announced', {
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
