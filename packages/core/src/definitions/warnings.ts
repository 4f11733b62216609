/**
 * What kind of repair or oddity a {@link DefinitionWarning} reports. Stable strings: hosts and
 * tests may group by them.
 *
 * - `front-matter-position`: blank lines before the opening `---`.
 * - `front-matter-indented`: the front matter (and body) were indented; read them dedented.
 * - `front-matter-fence`: the front matter was closed by a dash line longer than `---`.
 * - `yaml-repaired`: the front matter is not valid YAML; a field was read as plain text.
 * - `duplicate-field`: a field (or two of its aliases) was given twice; which one wins is named.
 * - `unknown-field`: a key troupe does not know; kept in `extra`.
 * - `name-from-file`: no `name`; the file name was used.
 * - `name-normalised`: `name` was not lowercase-with-hyphens and was rewritten.
 * - `model-display-name`: `model` was a display name (`Claude Sonnet 4.5`) mapped to an alias.
 * - `model-unrecognised`: `model` is neither an alias nor shaped like a model id; passed as is.
 * - `field-ignored`: a field (or a hook entry) had an unusable value and was dropped; the agent
 *   behaves as without it.
 * - `empty-prompt`: the body (system prompt) is empty.
 */
type DefinitionWarningKind =
  | 'front-matter-position'
  | 'front-matter-indented'
  | 'front-matter-fence'
  | 'yaml-repaired'
  | 'duplicate-field'
  | 'unknown-field'
  | 'name-from-file'
  | 'name-normalised'
  | 'model-display-name'
  | 'model-unrecognised'
  | 'field-ignored'
  | 'empty-prompt';

/** A non-fatal finding while reading an agent file: the definition loaded, but look here. */
export interface DefinitionWarning {
  kind: DefinitionWarningKind;
  /** Full sentence for people, starting with `file:line:` where known. */
  message: string;
  file?: string;
  line?: number;
  field?: string;
}

/** Where in a source a finding is: file, line, field (any may be unknown). */
export interface SourceLocation {
  file?: string | undefined;
  line?: number | undefined;
  field?: string | undefined;
}

/** `file:line: ` (or the parts that are known: `file: `, `line 3: `, nothing) as a message prefix. */
export function locationPrefix(where: SourceLocation): string {
  if (where.file === undefined) return where.line === undefined ? '' : `line ${where.line}: `;
  return where.line === undefined ? `${where.file}: ` : `${where.file}:${where.line}: `;
}

/** Builds a warning whose message starts with its location. */
export function makeWarning(
  kind: DefinitionWarningKind,
  text: string,
  where: SourceLocation,
): DefinitionWarning {
  const warning: DefinitionWarning = { kind, message: locationPrefix(where) + text };
  if (where.file !== undefined) warning.file = where.file;
  if (where.line !== undefined) warning.line = where.line;
  if (where.field !== undefined) warning.field = where.field;
  return warning;
}

/** `where` in the shape {@link DefinitionError} takes (undefined parts dropped). */
export function errorWhere(where: SourceLocation): { file?: string; line?: number; field?: string } {
  const out: { file?: string; line?: number; field?: string } = {};
  if (where.file !== undefined) out.file = where.file;
  if (where.line !== undefined) out.line = where.line;
  if (where.field !== undefined) out.field = where.field;
  return out;
}

/** A short, single-line rendering of a value for messages. */
export function preview(value: unknown, max = 60): string {
  let text: string;
  if (typeof value === 'string') text = JSON.stringify(value);
  else if (value === undefined) text = 'nothing';
  else if (value instanceof Date) text = value.toISOString();
  else {
    try {
      text = JSON.stringify(value) ?? String(value);
    } catch {
      text = String(value);
    }
  }
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
