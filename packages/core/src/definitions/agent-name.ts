import { DefinitionError } from '../errors.js';
import {
  type DefinitionWarning,
  errorWhere,
  locationPrefix,
  makeWarning,
  type SourceLocation,
} from './warnings.js';

/** What a valid agent name looks like: lowercase letters and digits in hyphen-separated words. */
export const AGENT_NAME_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** Longest accepted agent name, in characters (the tool-name limit of model APIs). */
export const AGENT_NAME_MAX_LENGTH = 64;

/** True when `name` is already a valid agent name. */
export function isValidAgentName(name: string): boolean {
  return name.length <= AGENT_NAME_MAX_LENGTH && AGENT_NAME_PATTERN.test(name);
}

/**
 * Rewrites a name into lowercase-with-hyphens: `Code Reviewer`, `code_reviewer` and `CodeReviewer`
 * all become `code-reviewer` (camelCase is split only in a single word); accents are dropped; other characters become hyphens. Returns `''`
 * when nothing usable is left (e.g. a name written only in Japanese).
 */
export function normaliseAgentName(name: string): string {
  // Every lookup by name comes here (a spawn, a restore): a valid name is its own normal form.
  if (isValidAgentName(name)) return name;
  const plain = name.normalize('NFKD').replace(/[\u0300-\u036f]/g, '');
  // Split camelCase only in a single word (`CSharpExpert`); in `Python DevOps Expert` the words
  // are already separated and `DevOps` is one of them.
  const words = /[^A-Za-z0-9]/.test(plain.trim())
    ? plain
    : plain.replace(/([a-z0-9])([A-Z])/g, '$1-$2').replace(/([A-Z]+)([A-Z][a-z])/g, '$1-$2');
  return words
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, AGENT_NAME_MAX_LENGTH)
    .replace(/-+$/, '');
}

/** The agent name a file path suggests: its base name without extension, normalised. */
export function agentNameFromPath(path: string): string {
  const base = path.split(/[\\/]/).pop() ?? path;
  return normaliseAgentName(base.replace(/\.[^.]*$/, ''));
}

/**
 * Settles a definition's name: a valid written name is kept; an invalid one is normalised (with a
 * `name-normalised` warning); a missing or unusable one falls back to the file name (with a
 * `name-from-file` warning). Throws {@link DefinitionError} when neither gives a usable name.
 */
export function settleAgentName(
  written: string | undefined,
  where: SourceLocation,
  warnings: DefinitionWarning[],
): string {
  if (written !== undefined && isValidAgentName(written)) return written;
  const located = { ...where, field: 'name' };
  if (written !== undefined) {
    const normalised = normaliseAgentName(written);
    if (isValidAgentName(normalised)) {
      warnings.push(
        makeWarning(
          'name-normalised',
          `name ${JSON.stringify(written)} is not lowercase-with-hyphens; using '${normalised}'.`,
          located,
        ),
      );
      return normalised;
    }
  }
  const fromFile = where.file === undefined ? '' : agentNameFromPath(where.file);
  if (isValidAgentName(fromFile)) {
    warnings.push(
      makeWarning(
        written === undefined ? 'name-from-file' : 'name-normalised',
        written === undefined
          ? `no 'name' field; using the file name '${fromFile}'.`
          : `name ${JSON.stringify(written)} has no letters or digits troupe can use; using the file name '${fromFile}'.`,
        located,
      ),
    );
    return fromFile;
  }
  throw new DefinitionError(
    `${locationPrefix(located)}field 'name' ${written === undefined ? 'is required' : `${JSON.stringify(written)} is not usable`}: ` +
      `use lowercase letters, digits and hyphens, e.g. 'code-reviewer' (at most ${AGENT_NAME_MAX_LENGTH} characters).`,
    errorWhere(located),
  );
}
