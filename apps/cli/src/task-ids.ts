import { UsageError } from './errors.js';

/**
 * The id `given` names among `ids`: an exact match, else the one id it is a prefix of (or the
 * team whose spells, `<team id>-<member>-<n>`, are the others it is a prefix of). Throws
 * {@link UsageError} when none or several match.
 */
export function matchTaskId(ids: readonly string[], given: string): string {
  if (ids.includes(given)) return given;
  const matches = ids.filter((id) => id.startsWith(given));
  if (matches.length === 1) return matches[0]!;
  // A team's spells are named `<team id>-<member>-<n>`: a prefix of the team's id names the team.
  const team = matches.find((id) => matches.every((other) => other === id || other.startsWith(`${id}-`)));
  if (team) return team;
  if (matches.length === 0) throw new UsageError(`No task with id "${given}".`);
  throw new UsageError(
    `"${given}" matches ${matches.length} tasks (${matches.slice(0, 5).join(', ')}${matches.length > 5 ? ', …' : ''}): give more of the id.`,
  );
}
