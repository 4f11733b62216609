import { formatTokens, replayTeam, type StoredTask, type TaskStore, type TeamEvent } from '@troupe/core';
import { UsageError } from '../errors.js';
import { EXIT } from '../exit-codes.js';
import type { CliContext } from '../io.js';
import type { Colors } from '../render/colors.js';
import { colorsFor } from '../render/colors.js';
import { firstLine, truncate } from '../render/text.js';

/**
 * `troupe replay TEAM-ID`: a stored team replayed offline (`replayTeam`: its journal folded
 * again, every spell replayed from its own journal, the messages each spell received checked
 * against the team's order). Prints the team's events, each spell's verdict, and ends with
 * "reproduced exactly" or the first difference (exit 1).
 */
export async function replayTeamCommand(
  context: CliContext,
  store: TaskStore,
  dir: string,
  task: StoredTask,
): Promise<number> {
  const { options } = context.line;
  if (options.forkAt !== undefined || options.inspect || options.stately || options.save)
    throw new UsageError(
      'A team is replayed as a whole: --fork-at, --inspect, --stately and --save take one task (replay a spell by its id).',
    );
  const id = task.spec.taskId;
  const colors = colorsFor(context.stdout, context.env);
  const width = Math.max(60, context.stdout.columns ?? 100);
  await store.flush();
  const outcome = await replayTeam(store, id);
  const { state } = outcome;
  const members = state.config.members.map((member) => member.name).join(', ');
  const out: string[] = [
    `${colors.bold(`Replaying team ${id}`)} ${state.config.name} (${members})`,
    colors.dim(`${outcome.spells.length} spells from ${dir} · no model, no tools`),
  ];
  // The team's journal, folded again: its events in order (the message interleaving).
  outcome.events.forEach((event, index) => {
    const line = eventLine(event, colors);
    if (line) out.push(truncate(`${colors.dim(String(index + 1).padStart(4))}  ${line}`, width));
  });
  out.push('', colors.bold('Spells'));
  for (const spell of outcome.spells) {
    const verdict = spell.outcome.matches ? colors.green('✓ exact') : colors.red('✗ differs');
    out.push(`  ${spell.taskId}  ${spell.member}  ${spell.outcome.steps.length} steps  ${verdict}`);
  }
  const result = outcome.result;
  out.push(
    '',
    `${result ? `Final: ${result.status} (${result.terminateReason})` : 'Not ended in the journal'} · ${state.messages.length} messages · ${state.tasks.length} tasks · ${formatTokens(state.usage.input + state.usage.output)} tokens`,
  );
  if (outcome.matches)
    out.push(
      `${colors.green('✓ reproduced exactly')}: the team's journal folds to its stored result, every spell replays exactly, and each received the team's messages in the journaled order.`,
    );
  else out.push(`${colors.red('✗ not reproduced')}: first difference: ${outcome.differences[0]}`);
  context.stdout.write(`${out.join('\n')}\n`);
  return outcome.matches ? EXIT.ok : EXIT.error;
}

/** One team event as a line of the replay. */
function eventLine(event: TeamEvent, colors: Colors): string | undefined {
  switch (event.type) {
    case 'team.message':
      return `${colors.cyan('message')}    ${event.from} → ${event.to.join(', ')}: ${event.summary ?? firstLine(event.text)}`;
    case 'team.spell.started':
      return `${colors.magenta('works')}      ${event.member} (${event.taskId})${event.messageIds.length ? ` with ${event.messageIds.join(', ')}` : ''}`;
    case 'team.spell.ended':
      return `${colors.dim('idle')}       ${event.member} (${event.status}, ${formatTokens(event.usage.input + event.usage.output)} tokens)`;
    case 'team.delivered':
      return `${colors.dim('delivered')}  ${event.messageIds.join(', ')} to ${event.member}`;
    case 'team.task.created':
      return `${colors.blue('task')}       #${event.task.id} added: ${event.task.subject}`;
    case 'team.task.updated':
      return `${colors.blue('task')}       #${event.task.id} ${event.task.status}${event.task.owner ? ` (${event.task.owner})` : ''}`;
    case 'team.plan.requested':
      return `${colors.yellow('plan')}       ${event.member} asks for approval`;
    case 'team.plan.answered':
      return `${colors.yellow('plan')}       ${event.requestId} ${event.approve ? 'approved' : 'rejected'} by ${event.from}`;
    case 'team.ended':
      return `${colors.bold('ended')}      ${event.status} (${event.terminateReason})`;
  }
}
