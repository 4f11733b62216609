import type { ReplayDifference } from './check-replay.js';

function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? 'undefined';
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}

/**
 * A replay difference in one line: `at journal entry 3 (model.responded): context.messages[3]
 * .content[0].text: recorded "…", replayed "…"`, or `in the task as spawned: …`.
 */
export function describeDifference(difference: ReplayDifference): string {
  const { entry } = difference;
  const where = entry
    ? `at journal entry ${entry.index} (${entry.type}${entry.seq === entry.index ? '' : `, seq ${entry.seq}`})`
    : 'in the task as spawned';
  if (difference.note) return `${where}: ${difference.note}`;
  return `${where}: ${difference.path}: recorded ${shown(difference.recorded)}, replayed ${shown(difference.replayed)}`;
}
