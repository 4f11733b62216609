import type { SubagentEvent } from '../machines/subagent-events.js';
import { journalEntry } from '../persistence/task-documents.js';
import type { JournalEntry, TaskResult, TaskSpec, TeamLink } from '../persistence/types.js';
import type { TeamEvent } from './team-events.js';
import type { TeamState } from './team-state.js';
import type { TeamConfig, TeamResult } from './team-types.js';

/** The agent name a team's own task is stored under. */
export const TEAM_AGENT = 'team';

/**
 * A team journal entry. The store keeps a journal of loose events for every task (`{ type, at }`,
 * validated as such by every backend); a team's journal holds team events, which no subagent
 * machine is ever fed (restore and replay read a team task's journal with `teamEventsOf`).
 */
export function teamJournalEntry(seq: number, event: TeamEvent): JournalEntry {
  return journalEntry(seq, event as unknown as SubagentEvent);
}

/** The team events of a team task's journal, in order (entries of another kind are skipped). */
export function teamEventsOf(entries: readonly JournalEntry[]): TeamEvent[] {
  const events: TeamEvent[] = [];
  for (const entry of entries) {
    const event = entry.event as unknown as { type?: unknown };
    if (typeof event?.type === 'string' && event.type.startsWith('team.')) events.push(event as TeamEvent);
  }
  return events;
}

/** The spec of a team's own task: the config as `input`, `team: { teamId }`, the lead's prompt. */
export function teamSpec(teamId: string, config: TeamConfig, createdAt: number): TaskSpec {
  const lead = config.members.find((member) => member.name === config.lead);
  const team: TeamLink = { teamId };
  return {
    taskId: teamId,
    agent: TEAM_AGENT,
    description: `team ${config.name}`.slice(0, 80),
    prompt: lead?.prompt ?? '',
    sessionKey: config.sessionKey,
    depth: 0,
    background: true,
    announce: false,
    model: '',
    system: '',
    tools: [],
    limits: { maxTurns: 1, tokenBudget: config.tokenBudget, timeoutMs: 1 },
    input: config,
    team,
    messages: [],
    createdAt,
  };
}

/** The team's config, read back from its task's spec. */
export function teamConfigOf(spec: TaskSpec): TeamConfig | undefined {
  const input = spec.input as Partial<TeamConfig> | undefined;
  if (!input || typeof input !== 'object' || !Array.isArray(input.members) || typeof input.lead !== 'string')
    return undefined;
  return input as TeamConfig;
}

/** What the team produced, from its final state. */
export function teamResultOf(state: TeamState): TeamResult {
  const ended = state.ended ?? { status: 'failed' as const, terminateReason: 'ERROR' as const };
  const result: TeamResult = {
    teamId: state.teamId,
    status: ended.status,
    terminateReason: ended.terminateReason,
    output: state.leadOutput,
    messages: [...state.messages],
    tasks: [...state.tasks],
    members: Object.values(state.members).map((member) => ({
      name: member.name,
      agent: member.agent,
      spells: member.spells,
      tokens: member.tokens,
    })),
    usage: { ...state.usage, total: state.usage.input + state.usage.output },
  };
  if (ended.message !== undefined) result.message = ended.message;
  return result;
}

/**
 * The result document of the team's own task. Its usage is zero: the tokens are its spells' (each
 * a task with its own result), so a usage report does not count them twice. A message limit is
 * stored as `ERROR` with the code `TEAM_MESSAGE_LIMIT` (a task's terminate reasons are fixed).
 */
export function teamTaskResult(result: TeamResult, durationMs: number): TaskResult {
  const taskResult: TaskResult = {
    taskId: result.teamId,
    agent: TEAM_AGENT,
    status: result.status,
    terminateReason: result.terminateReason === 'MESSAGE_LIMIT' ? 'ERROR' : result.terminateReason,
    output: result.output ?? null,
    turns: result.members.reduce((sum, member) => sum + member.spells, 0),
    toolCalls: 0,
    durationMs: Math.max(0, durationMs),
    model: '',
    usage: { input: 0, output: 0, total: 0 },
  };
  if (result.message !== undefined)
    taskResult.error = {
      name: 'TroupeError',
      code:
        result.terminateReason === 'MESSAGE_LIMIT' ? 'TEAM_MESSAGE_LIMIT' : `TEAM_${result.terminateReason}`,
      message: result.message,
    };
  return taskResult;
}
