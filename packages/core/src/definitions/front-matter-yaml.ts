import yaml from 'js-yaml';
import { DefinitionError } from '../errors.js';
import { valueShapeProblem } from './schema-shape.js';
import { type DefinitionWarning, errorWhere, locationPrefix, makeWarning } from './warnings.js';

/** Fields read from front matter, with the file line each key is on. */
export interface FrontMatterData {
  data: Record<string, unknown>;
  /** Key → 1-based file line. */
  lines: Map<string, number>;
  warnings: DefinitionWarning[];
}

// js-yaml 4's loader: safe by default (no `!!js/function`, no eval), no Buffer, no Node imports, so
// it runs unchanged in a browser (gray-matter and js-yaml 3 pull in `fs`/`buffer`). We split the
// fences ourselves, to survive BOM, CRLF, indentation and long fences.
// A top-level key in the lenient reader. Real keys start lowercase (name, description, displayName,
// auto_activate, ...); requiring that keeps `Examples: ...` or `Context: ...` lines inside an
// unquoted description from being mistaken for keys.
const KEY_LINE = /^([a-z_][A-Za-z0-9_-]*)[ \t]*:(?=[ \t]|$)(.*)$/;

/**
 * Parses a front-matter block as YAML (js-yaml 4, safe by default). When strict YAML fails — as it
 * does for ~3% of real agent files (unquoted `: ` in a description, a value starting with `*`, a
 * continuation line at column 0) — falls back to a line-based reader: each `key:` at column 0
 * starts a field, following lines continue it, and a field whose own text still is not YAML is read
 * as plain text. Each such repair is a `yaml-repaired` warning naming the line and field.
 * Throws {@link DefinitionError} when the block is valid YAML but not a mapping of fields.
 */
export function parseFrontMatterYaml(
  text: string,
  where: { file: string | undefined; firstLine: number },
): FrontMatterData {
  const { file, firstLine } = where;
  let parsed: unknown;
  try {
    parsed = yaml.load(text);
  } catch (error) {
    return parseLeniently(text, where, error);
  }
  refuseExpansion(parsed, where);
  if (parsed === null || parsed === undefined) return { data: {}, lines: new Map(), warnings: [] };
  if (typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new DefinitionError(
      `${locationPrefix({ file, line: firstLine })}the front matter must be 'key: value' fields; it is ${Array.isArray(parsed) ? 'a list' : `a single ${typeof parsed}`}.`,
      errorWhere({ file, line: firstLine }),
    );
  }
  return { data: parsed as Record<string, unknown>, lines: keyLines(text, firstLine), warnings: [] };
}

/** Objects and lists a front matter may hold once YAML aliases are expanded. */
const MAX_FRONT_MATTER_NODES = 100_000;
const MAX_FRONT_MATTER_DEPTH = 200;

// js-yaml shares an aliased node instead of copying it, so loading a billion-laughs document is
// quick; whatever walks the result afterwards (a schema compiler, JSON.stringify) is not.
function refuseExpansion(value: unknown, where: { file: string | undefined; firstLine: number }): void {
  const problem = valueShapeProblem(value, {
    maxDepth: MAX_FRONT_MATTER_DEPTH,
    maxNodes: MAX_FRONT_MATTER_NODES,
  });
  if (problem === undefined) return;
  throw new DefinitionError(
    `${locationPrefix({ file: where.file, line: where.firstLine })}the front matter cannot be read safely: ${problem}.`,
    errorWhere({ file: where.file, line: where.firstLine }),
  );
}

function keyLines(text: string, firstLine: number): Map<string, number> {
  const lines = new Map<string, number>();
  text.split('\n').forEach((line, index) => {
    const match = /^["']?([^\s"':#][^"':]*?)["']?[ \t]*:(?=[ \t]|$)/.exec(line);
    if (match && !lines.has(match[1]!)) lines.set(match[1]!, firstLine + index);
  });
  return lines;
}

interface Entry {
  key: string;
  line: number;
  rest: string;
  continuation: string[];
}

function parseLeniently(
  text: string,
  where: { file: string | undefined; firstLine: number },
  strictError: unknown,
): FrontMatterData {
  const { file, firstLine } = where;
  const reason = yamlReason(strictError);
  const warnings: DefinitionWarning[] = [];
  const entries: Entry[] = [];
  text.split('\n').forEach((line, index) => {
    const match = KEY_LINE.exec(line);
    if (match) {
      entries.push({ key: match[1]!, line: firstLine + index, rest: match[2]!, continuation: [] });
    } else if (entries.length > 0) {
      entries[entries.length - 1]!.continuation.push(line);
    } else if (line.trim() !== '' && !line.trimStart().startsWith('#')) {
      warnings.push(
        makeWarning(
          'yaml-repaired',
          `ignored a line that belongs to no field: ${JSON.stringify(line.trim())}.`,
          {
            file,
            line: firstLine + index,
          },
        ),
      );
    }
  });
  const data: Record<string, unknown> = {};
  const lines = new Map<string, number>();
  for (const entry of entries) {
    const located = { file, line: entry.line, field: entry.key };
    if (Object.hasOwn(data, entry.key)) {
      warnings.push(
        makeWarning(
          'duplicate-field',
          `'${entry.key}' is given again (first on line ${lines.get(entry.key)}); the later value wins.`,
          located,
        ),
      );
    }
    lines.set(entry.key, entry.line);
    const chunk = [`${entry.key}:${entry.rest}`, ...entry.continuation].join('\n');
    try {
      const value = yaml.load(chunk) as Record<string, unknown> | null;
      refuseExpansion(value, where);
      if (value && typeof value === 'object' && Object.hasOwn(value, entry.key)) {
        data[entry.key] = value[entry.key];
        continue;
      }
    } catch {
      // Not YAML on its own either: read it as text below.
    }
    const list = brokenFlowList(entry.rest, entry.continuation);
    if (list) {
      data[entry.key] = list;
      warnings.push(
        makeWarning(
          'yaml-repaired',
          `'${entry.key}' is a list that is not valid YAML (${reason}); read it as [${list.join(', ')}]. Write it as [${list.join(', ')}] to fix this.`,
          located,
        ),
      );
      continue;
    }
    data[entry.key] = plainText(entry.rest, entry.continuation);
    warnings.push(
      makeWarning(
        'yaml-repaired',
        `'${entry.key}' is not valid YAML (${reason}); read it as plain text. Quote the value to fix this.`,
        located,
      ),
    );
  }
  if (warnings.length === 0) {
    warnings.push(
      makeWarning(
        'yaml-repaired',
        `the front matter is not valid YAML (${reason}); read it field by field.`,
        {
          file,
          line: firstLine,
        },
      ),
    );
  }
  return { data, lines, warnings };
}

/**
 * A flow list YAML could not read (`[read, grep` without its `]`, a stray quote): its items, split
 * on commas outside parentheses (`Bash(git diff:*)` stays whole), quotes and brackets stripped.
 * Undefined when the value does not start with `[`.
 */
function brokenFlowList(rest: string, continuation: string[]): string[] | undefined {
  const text = [rest, ...continuation]
    .map((line) => line.trim())
    .join(' ')
    .trim();
  if (!text.startsWith('[')) return undefined;
  const inner = text.slice(1).replace(/\]\s*$/, '');
  const items: string[] = [];
  let depth = 0;
  let current = '';
  for (const char of inner) {
    if (char === '(') depth++;
    if (char === ')') depth = Math.max(0, depth - 1);
    if (char === ',' && depth === 0) {
      items.push(current);
      current = '';
    } else current += char;
  }
  items.push(current);
  return items.map((item) => item.trim().replace(/^["'[\s]+|["'\]\s]+$/g, '')).filter((item) => item !== '');
}

/** The value of a field read as text: YAML's folding for plain scalars, quotes stripped. */
function plainText(rest: string, continuation: string[]): string {
  const head = rest.trim();
  if (/^[|>][-+0-9]*$/.test(head)) {
    const body = continuation.filter((line, index, all) => line.trim() !== '' || index < all.length - 1);
    const indent = Math.min(
      ...body.filter((line) => line.trim()).map((line) => /^\s*/.exec(line)![0].length),
    );
    const dedented = body.map((line) => line.slice(Number.isFinite(indent) ? indent : 0));
    return (head.startsWith('|') ? dedented.join('\n') : fold(dedented)).trim();
  }
  const text = fold([head, ...continuation]);
  if (text.length >= 2 && text.startsWith('"') && text.endsWith('"')) {
    try {
      return JSON.parse(text) as string;
    } catch {
      return text.slice(1, -1);
    }
  }
  if (text.length >= 2 && text.startsWith("'") && text.endsWith("'"))
    return text.slice(1, -1).replace(/''/g, "'");
  return text;
}

/** YAML plain-scalar folding: a single line break is a space, each blank line a newline. */
function fold(lines: string[]): string {
  let out = '';
  let blanks = 0;
  for (const raw of lines) {
    const line = raw.trim();
    if (line === '') {
      if (out !== '') blanks++;
      continue;
    }
    if (out !== '') out += blanks > 0 ? '\n'.repeat(blanks) : ' ';
    out += line;
    blanks = 0;
  }
  return out;
}

function yamlReason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const reason = (error as { reason?: unknown }).reason;
  return typeof reason === 'string' ? reason : (message.split('\n')[0] ?? message);
}
