import { DefinitionError } from '../errors.js';
import { type DefinitionWarning, errorWhere, locationPrefix, makeWarning } from './warnings.js';

/** A Markdown agent file split into its front matter and body, with line numbers kept. */
export interface SplitFrontMatter {
  /** The YAML between the fences, dedented, with `\n` line ends. */
  yaml: string;
  /** 1-based file line of the first YAML line. */
  yamlFirstLine: number;
  /** 1-based file line of the opening `---`. */
  openLine: number;
  /** Everything after the closing fence (dedented like the front matter). */
  body: string;
  warnings: DefinitionWarning[];
}

const OPEN = /^([ \t]*)---([A-Za-z]*)[ \t]*$/;
const CLOSE = /^[ \t]*(-{3,})[ \t]*$/;

/**
 * Splits an agent file into front matter and body, tolerating what real files do: a UTF-8 BOM,
 * CRLF or CR line ends, blank lines before the opening fence, an indented block, and a closing
 * fence longer than `---`. Every tolerance except BOM and line ends adds a warning.
 * Throws {@link DefinitionError} (naming file and line) when there is no front matter, when it is
 * never closed, or when it declares a language other than YAML.
 */
export function splitFrontMatter(text: string, file: string | undefined): SplitFrontMatter {
  const lines = normaliseText(text).split('\n');
  const warnings: DefinitionWarning[] = [];
  let first = 0;
  while (first < lines.length && lines[first]!.trim() === '') first++;
  const open = first < lines.length ? OPEN.exec(lines[first]!) : null;
  if (!open) {
    const line = first < lines.length ? first + 1 : 1;
    throw new DefinitionError(
      `${locationPrefix({ file, line })}no front matter found (expected the file to start with a line '---'). ` +
        `An agent file is '---', then YAML fields (name, description, tools, model, ...), then '---', then the system prompt.`,
      errorWhere({ file, line }),
    );
  }
  const openLine = first + 1;
  const indent = open[1]!;
  const language = open[2]!.toLowerCase();
  if (language !== '' && language !== 'yaml' && language !== 'yml') {
    throw new DefinitionError(
      `${locationPrefix({ file, line: openLine })}front matter in '${open[2]}' is not supported; use YAML ('---').`,
      errorWhere({ file, line: openLine }),
    );
  }
  if (first > 0) {
    warnings.push(
      makeWarning('front-matter-position', `${first} blank line(s) before the opening '---'; ignored them.`, {
        file,
        line: openLine,
      }),
    );
  }
  if (indent !== '') {
    warnings.push(
      makeWarning(
        'front-matter-indented',
        `the front matter is indented by ${JSON.stringify(indent)}; read it (and the body) dedented. Start '---' at column 1.`,
        { file, line: openLine },
      ),
    );
  }
  let close = -1;
  for (let index = first + 1; index < lines.length; index++) {
    if (CLOSE.test(lines[index]!)) {
      close = index;
      break;
    }
  }
  if (close === -1) {
    throw new DefinitionError(
      `${locationPrefix({ file, line: openLine })}the front matter opened here is never closed: add a line '---' after the last field.`,
      errorWhere({ file, line: openLine }),
    );
  }
  const dashes = CLOSE.exec(lines[close]!)![1]!;
  if (dashes.length > 3) {
    warnings.push(
      makeWarning(
        'front-matter-fence',
        `the front matter is closed by ${dashes.length} dashes; read it as '---'.`,
        { file, line: close + 1 },
      ),
    );
  }
  const dedent = (line: string) =>
    indent !== '' && line.startsWith(indent) ? line.slice(indent.length) : line;
  return {
    yaml: lines
      .slice(first + 1, close)
      .map(dedent)
      .join('\n'),
    yamlFirstLine: first + 2,
    openLine,
    body: lines
      .slice(close + 1)
      .map(dedent)
      .join('\n'),
    warnings,
  };
}

/** Drops a leading UTF-8 BOM and turns CRLF / CR line ends into LF. */
export function normaliseText(text: string): string {
  const withoutBom = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  return withoutBom.replace(/\r\n?/g, '\n');
}
