import {
  formatDuration,
  formatTokens,
  readTeam,
  type StoredTask,
  type TaskSpec,
  type TaskStore,
} from '@troupe/core';
import { EXIT } from '../exit-codes.js';
import type { CliContext } from '../io.js';
import { colorsFor } from '../render/colors.js';
import type { TaskRow } from '../render/task-table.js';
import { teamLines } from '../render/team-view.js';

/** Whether a stored task is an agent team's own task (not one of its members' spells). */
export function isTeam(spec: TaskSpec): boolean {
  return spec.team !== undefined && spec.team.member === undefined;
}

/**
 * A history row for a team: agent `team`, its name and members as the description, and the tool
 * calls and tokens of its members' spells (the team's own task has none of its own).
 */
export function teamRow(row: TaskRow, team: TaskSpec, spells: readonly (StoredTask | undefined)[]): TaskRow {
  const input = team.input as { name?: unknown; members?: { name?: unknown }[] } | undefined;
  const names = Array.isArray(input?.members) ? input.members.map((member) => String(member.name)) : [];
  return {
    ...row,
    agent: 'team',
    description: `${typeof input?.name === 'string' ? input.name : 'team'}: ${names.join(', ')}`,
    toolCalls: spells.reduce((sum, spell) => sum + (spell?.result?.toolCalls ?? 0), 0),
    tokens: spells.reduce((sum, spell) => sum + (spell?.result?.usage.total ?? 0), 0),
  };
}

/**
 * `troupe tasks show TEAM-ID`: the team as its journal tells it (members, every message, the task
 * list, how it ended) and each member's spells (tasks of their own, shown with `tasks show`).
 */
export async function showTeam(context: CliContext, store: TaskStore, task: StoredTask): Promise<number> {
  const id = task.spec.taskId;
  await store.flush();
  const team = await readTeam(store, id);
  const spells = team.events.flatMap((event) => (event.type === 'team.spell.started' ? [event] : []));
  const stored = await Promise.all(spells.map((spell) => store.getTask(spell.taskId)));
  if (context.line.options.json) {
    const json = {
      teamId: id,
      status: task.status,
      result: team.recorded,
      state: team.state,
      spells: spells.map((spell, index) => ({
        taskId: spell.taskId,
        member: spell.member,
        status: stored[index]?.status,
        tokens: stored[index]?.result?.usage.total ?? 0,
      })),
    };
    context.stdout.write(`${JSON.stringify(json, null, 2)}\n`);
    return EXIT.ok;
  }
  const colors = colorsFor(context.stdout, context.env);
  const width = Math.max(60, context.stdout.columns ?? 100);
  const lines = [
    ...teamLines(team.state, colors, width),
    '',
    `created:  ${new Date(task.spec.createdAt).toISOString()} · session ${task.spec.sessionKey}${team.recorded ? ` · ran ${formatDuration(team.recorded.durationMs)}` : ''}`,
    '',
    colors.bold(`Spells (${spells.length}): each a task of its own (troupe tasks show ID)`),
  ];
  spells.forEach((spell, index) => {
    const found = stored[index];
    const status = found
      ? `${found.status}${found.result ? ` (${found.result.terminateReason})` : ''}`
      : 'missing';
    const tokens = formatTokens(found?.result?.usage.total ?? 0);
    lines.push(`  ${spell.taskId}  ${spell.member}  ${status} · ${tokens} tokens`);
  });
  const output = team.state.leadOutput;
  if (output !== undefined)
    lines.push(
      '',
      colors.bold('Outcome (the lead’s last answer)'),
      typeof output === 'string' ? output : JSON.stringify(output, null, 2),
    );
  lines.push('', colors.dim(`Replay it: troupe replay ${id}`));
  context.stdout.write(`${lines.join('\n')}\n`);
  return EXIT.ok;
}
