import { formatTokens, type TeamMessage, type TeamState, type TeamTask } from '@troupe/core';
import type { Colors } from './colors.js';
import { renderTable } from './table.js';
import { firstLine, truncate, visibleWidth } from './text.js';

/** What a view adds to a member from its running spell: tokens so far, the tool it runs. */
export interface SpellProgress {
  tokens: number;
  lastTool?: string;
}

/** `[auth-review]`: a team's tag in progress lines. */
export function teamTag(state: TeamState, colors: Colors): string {
  return colors.magenta(`[${state.config.name}]`);
}

/** `team-lead → alice: where is login` (the summary, else the text's first line), cut to `width`. */
export function messageLine(message: TeamMessage, colors: Colors, width: number): string {
  const about = message.summary?.trim() || firstLine(message.text);
  return truncate(`${colors.bold(message.from)} → ${colors.bold(message.to)}: ${about}`, width);
}

/** Tasks done of the tasks not deleted: `1/3`. */
function taskCount(state: TeamState): string {
  const tasks = state.tasks.filter((task) => task.status !== 'deleted');
  return `${tasks.filter((task) => task.status === 'completed').length}/${tasks.length}`;
}

/** `auth-review (t_1a2b) · working · 4 messages · tasks 1/3 done · 12k tokens`. */
export function teamSummary(state: TeamState, colors: Colors): string {
  return teamSummaryParts(state, colors).join(' · ');
}

/** {@link teamSummary} in two: who and how it stands (`auth-review (t_1a2b) · working`), then its counts. */
function teamSummaryParts(state: TeamState, colors: Colors): [string, string] {
  const ended = state.ended;
  const status = ended
    ? ended.status === 'completed'
      ? colors.green(`completed (${ended.terminateReason})`)
      : ended.status === 'cancelled'
        ? colors.yellow('cancelled')
        : colors.red(`failed (${ended.terminateReason})`)
    : 'working';
  const tokens = state.usage.input + state.usage.output;
  return [
    `${colors.bold(state.config.name)} ${colors.dim(`(${state.teamId})`)} · ${status}`,
    `${state.messages.length} messages · tasks ${taskCount(state)} done · ${formatTokens(tokens)} tokens`,
  ];
}

/**
 * One line per member: `team-lead  general-purpose  working  1.2k tokens · SendMessage alice`,
 * the lead first. `progress` adds a working member's spell so far.
 */
export function memberLines(
  state: TeamState,
  colors: Colors,
  width: number,
  progress: (taskId: string) => SpellProgress | undefined = () => undefined,
): string[] {
  const members = state.config.members.map((member) => state.members[member.name]!);
  const nameWidth = Math.max(...members.map((member) => member.name.length));
  const agentWidth = Math.max(...members.map((member) => member.agent.length));
  return members.map((member) => {
    const spell = member.spell ? progress(member.spell) : undefined;
    const tokens = member.tokens + (spell?.tokens ?? 0);
    const status = member.status === 'working' ? colors.green('working') : colors.dim('idle   ');
    const waiting = member.inbox.length ? colors.yellow(` · ${member.inbox.length} waiting`) : '';
    const tool = spell?.lastTool ? colors.dim(` · ${spell.lastTool}`) : '';
    const lead = member.name === state.config.lead ? colors.dim(' (lead)') : '';
    return truncate(
      `  ${member.name.padEnd(nameWidth)}  ${colors.dim(member.agent.padEnd(agentWidth))}  ${status}  ${formatTokens(tokens).padStart(6)} tokens${waiting}${tool}${lead}`,
      width,
    );
  });
}

function taskStatus(task: TeamTask, state: TeamState, colors: Colors): string {
  if (task.status === 'completed') return colors.green('completed');
  if (task.status === 'in_progress') return colors.cyan('in_progress');
  if (task.status === 'deleted') return colors.dim('deleted');
  const open = task.blockedBy.filter(
    (id) => state.tasks.find((other) => other.id === id)?.status !== 'completed',
  );
  return open.length ? colors.yellow('blocked') : 'pending';
}

/** The team's task list as a table: id, subject, owner, status, blocked by (open dependencies). */
export function taskBoardLines(state: TeamState, colors: Colors, width: number): string[] {
  const tasks = state.tasks.filter((task) => task.status !== 'deleted');
  if (tasks.length === 0) return [colors.dim('  No tasks on the team’s list.')];
  // The subject takes what the other columns leave (at least 12 columns).
  const subjectWidth = Math.max(12, width - 2 - 4 - 12 - 11 - 12 - 8);
  const rows = tasks.map((task) => [
    `#${task.id}`,
    truncate(task.subject, subjectWidth),
    task.owner ?? '-',
    taskStatus(task, state, colors),
    task.blockedBy.length ? task.blockedBy.map((id) => `#${id}`).join(',') : '-',
  ]);
  return renderTable(
    [
      { header: 'ID' },
      { header: 'SUBJECT' },
      { header: 'OWNER' },
      { header: 'STATUS' },
      { header: 'BLOCKED BY' },
    ],
    rows,
    { header: colors.bold },
  ).map((line) => truncate(`  ${line}`, width));
}

/**
 * A team in full, for `/team` and `troupe tasks show TEAM-ID`: its summary, members, messages
 * (the last `messages` of them; all by default) and task list.
 */
export function teamLines(
  state: TeamState,
  colors: Colors,
  width: number,
  options: { messages?: number; progress?: (taskId: string) => SpellProgress | undefined } = {},
): string[] {
  // A summary wider than the terminal goes on two lines, rather than wrapping where it happens to.
  const summary = `Team ${teamSummary(state, colors)}`;
  const [who, counts] = teamSummaryParts(state, colors);
  const lines =
    visibleWidth(summary) <= width
      ? [summary]
      : [truncate(`Team ${who}`, width), truncate(`  ${counts}`, width)];
  if (state.ended?.message)
    lines.push(colors.dim(`  ${truncate(firstLine(state.ended.message), width - 2)}`));
  lines.push('', colors.bold('Members'), ...memberLines(state, colors, width, options.progress));
  const shown = options.messages === undefined ? state.messages : state.messages.slice(-options.messages);
  lines.push('', colors.bold(`Messages (${state.messages.length})`));
  if (shown.length < state.messages.length)
    lines.push(colors.dim(`  … ${state.messages.length - shown.length} earlier`));
  if (state.messages.length === 0) lines.push(colors.dim('  None yet.'));
  for (const message of shown)
    lines.push(`  ${colors.dim(message.id.padEnd(4))} ${messageLine(message, colors, width - 7)}`);
  lines.push('', colors.bold('Tasks'), ...taskBoardLines(state, colors, width));
  return lines;
}
