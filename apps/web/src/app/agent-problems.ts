import { type AgentDefinition, DefinitionError, parseAgentFile } from '@troupe/core';

/** One problem of an agent file: an error (the file cannot be used) or a warning (it can). */
export interface AgentProblem {
  severity: 'error' | 'warning';
  /** 1-based line in the file, when known. */
  line?: number;
  /** The message without its location (the page shows the line once, itself). */
  message: string;
}

/** What checking an agent file found. */
export interface AgentCheck {
  /** The definition, when the file has no error. */
  definition?: AgentDefinition;
  /** The agent's name as far as it could be read (also when the file has errors). */
  name?: string;
  problems: AgentProblem[];
}

/** Model aliases the runtime resolves (and `inherit`). */
const MODEL_ALIASES = new Set(['inherit', 'haiku', 'sonnet', 'opus', 'small', 'plan']);

/** `agent.md:4: text` → `text`: the parser's messages start with where they are. */
const withoutLocation = (message: string): string =>
  message.replace(/^(?:[^\s:]+:)?\d+:\s*|^[^\s:]+\.md:\s*/, '');

/** Stops the first-error-only parser from stopping: hides the offending field, keeping line numbers. */
function withoutField(text: string, error: DefinitionError): string | undefined {
  const lines = text.split('\n');
  const close = lines.findIndex((line, index) => index > 0 && /^---\s*$/.test(line));
  if (error.field && error.line && error.line >= 2 && error.line - 1 < close) {
    const at = error.line - 1;
    if (!lines[at]!.trimStart().startsWith(`${error.field}`)) {
      // The reported line is the front matter's start (a missing field): give it a stand-in.
      if (close < 0) return undefined;
      lines.splice(close, 0, `${error.field}: stand-in`);
      return lines.join('\n');
    }
    lines[at] = '#';
    // Continuation lines of a block value (indented) go too.
    for (let next = at + 1; next < close && /^\s+\S/.test(lines[next]!); next++) lines[next] = '#';
    return lines.join('\n');
  }
  if (error.field && close > 0 && !new RegExp(`^${error.field}\\s*:`, 'm').test(text)) {
    lines.splice(close, 0, `${error.field}: stand-in`);
    return lines.join('\n');
  }
  return undefined;
}

/**
 * Checks an agent file with core's parser and reports every problem at once: each error (the
 * parser stops at the first, so the field at fault is set aside and the file read again, up to
 * 20 times), the parser's warnings, and warnings of this app: tools it does not have
 * (`knownTools`), a model that is not an alias or a Claude model id, and a name that shadows a
 * built-in agent (`builtIns`).
 */
export function checkAgentFile(
  text: string,
  context: { knownTools: readonly string[]; builtIns: readonly string[] },
): AgentCheck {
  const problems: AgentProblem[] = [];
  let current = text;
  let definition: AgentDefinition | undefined;
  let name = /^name:\s*(\S+)\s*$/m.exec(text)?.[1];
  for (let attempt = 0; attempt < 20; attempt++) {
    try {
      const parsed = parseAgentFile(current, { path: 'agent.md' });
      for (const warning of parsed.warnings)
        problems.push({
          severity: 'warning',
          ...(warning.line !== undefined ? { line: warning.line } : {}),
          message: withoutLocation(warning.message),
        });
      if (attempt === 0) definition = parsed.definition;
      name = parsed.definition.name;
      const tools = [...(parsed.definition.tools ?? []), ...(parsed.definition.disallowedTools ?? [])];
      const toolLine =
        text.split('\n').findIndex((line) => /^(tools|allowed-tools|disallowedTools)\s*:/.test(line)) + 1;
      for (const tool of tools)
        if (!context.knownTools.includes(tool) && !tool.includes('*') && !tool.startsWith('mcp__'))
          problems.push({
            severity: 'warning',
            ...(toolLine ? { line: toolLine } : {}),
            message: `unknown tool '${tool}': this app has ${context.knownTools.join(', ')}; the agent will not get it.`,
          });
      const model = parsed.definition.model;
      const noted = parsed.warnings.some((warning) => warning.kind === 'model-unrecognised');
      if (model && !noted && !MODEL_ALIASES.has(model) && !/^claude-/.test(model)) {
        const modelLine = text.split('\n').findIndex((line) => /^model\s*:/.test(line)) + 1;
        problems.push({
          severity: 'warning',
          ...(modelLine ? { line: modelLine } : {}),
          message: `unknown model '${model}': use an alias (haiku, sonnet, opus, small, plan, inherit) or a Claude model id; a call with it will fail.`,
        });
      }
      if (context.builtIns.includes(parsed.definition.name))
        problems.push({
          severity: 'warning',
          message: `'${parsed.definition.name}' is the name of a built-in agent: saved, yours replaces it after a reload.`,
        });
      break;
    } catch (error) {
      if (!(error instanceof DefinitionError)) {
        problems.push({ severity: 'error', message: (error as Error).message });
        break;
      }
      problems.push({
        severity: 'error',
        ...(error.line !== undefined ? { line: error.line } : {}),
        message: withoutLocation(error.message),
      });
      const next = withoutField(current, error);
      if (next === undefined || next === current) break;
      current = next;
    }
  }
  problems.sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
  return { ...(definition ? { definition } : {}), ...(name ? { name } : {}), problems };
}
