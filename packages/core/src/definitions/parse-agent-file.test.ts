import { describe, expect, it } from 'vitest';
import { DefinitionError } from '../errors.js';
import { parseAgentFile } from './parse-agent-file.js';

const md = (...lines: string[]) => lines.join('\n');
const parse = (text: string, path = 'agents/x.md') => parseAgentFile(text, { path });
/** Parses an agent file with `name: a`, `description: d`, then `lines` in its front matter. */
const withFields = (...lines: string[]) =>
  parse(md('---', 'name: a', 'description: d', ...lines, '---', 'p'));

function errorOf(run: () => unknown): DefinitionError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(DefinitionError);
    return error as DefinitionError;
  }
  throw new Error('expected a DefinitionError');
}

describe('parseAgentFile: fields', () => {
  it('reads every field and keeps the body as the system prompt', () => {
    const { definition, warnings } = parse(
      md(
        '---',
        'name: code-reviewer',
        'description: Reviews diffs for bugs.',
        'tools: read, grep, glob',
        'disallowedTools: [bash]',
        'model: sonnet',
        'maxTurns: 12',
        'timeout: 60000',
        'tokenBudget: 50000',
        'inputSchema: { type: object, properties: { diff: { type: string } }, required: [diff] }',
        'outputSchema:',
        '  type: object',
        '  properties:',
        '    verdict: { type: string, enum: [approve, reject] }',
        'forkContext: true',
        'background: false',
        'color: "#10B981"',
        '---',
        '',
        'You review code.',
        '',
        'Be brief.',
        '',
      ),
    );
    expect(warnings).toEqual([]);
    expect(definition).toEqual({
      name: 'code-reviewer',
      description: 'Reviews diffs for bugs.',
      tools: ['read', 'grep', 'glob'],
      disallowedTools: ['bash'],
      model: 'sonnet',
      maxTurns: 12,
      timeoutMs: 60_000,
      tokenBudget: 50_000,
      inputSchema: { type: 'object', properties: { diff: { type: 'string' } }, required: ['diff'] },
      outputSchema: {
        type: 'object',
        properties: { verdict: { type: 'string', enum: ['approve', 'reject'] } },
      },
      forkContext: true,
      background: false,
      color: '#10B981',
      systemPrompt: 'You review code.\n\nBe brief.',
      path: 'agents/x.md',
    });
  });

  it('accepts the snake_case aliases', () => {
    const { definition, warnings } = parse(
      md(
        '---',
        'name: a',
        'description: d',
        'disallowed_tools: write, edit',
        'max_turns: 3',
        'timeout_ms: 1500',
        'token_budget: 900',
        'input_schema: { type: object }',
        'output_schema: { type: object }',
        'fork_context: yes',
        '---',
        'p',
      ),
    );
    expect(warnings).toEqual([]);
    expect(definition).toMatchObject({
      disallowedTools: ['write', 'edit'],
      maxTurns: 3,
      timeoutMs: 1500,
      tokenBudget: 900,
      inputSchema: { type: 'object' },
      outputSchema: { type: 'object' },
      forkContext: true,
    });
  });

  it('reads timeout_mins as minutes and duration strings for timeout', () => {
    expect(withFields('timeout_mins: 2.5').definition.timeoutMs).toBe(150_000);
    expect(withFields('timeout: 90s').definition.timeoutMs).toBe(90_000);
    expect(withFields('timeout: 5m').definition.timeoutMs).toBe(300_000);
    expect(withFields('maxTurns: "7"').definition.maxTurns).toBe(7);
  });

  it('accepts the camelCase timeout aliases, a schema as a JSON string, and ---yaml', () => {
    expect(withFields('timeoutMs: 2000').definition.timeoutMs).toBe(2000);
    expect(withFields('timeoutMins: 1').definition.timeoutMs).toBe(60_000);
    const schema = withFields('inputSchema: \'{"type": "object"}\'');
    expect(schema.definition.inputSchema).toEqual({ type: 'object' });
    expect(parse(md('---yaml', 'name: a', 'description: d', '---', 'p')).definition.name).toBe('a');
  });

  it('drops an unusable color with a warning, and reads a numeric name', () => {
    const { definition, warnings } = parse(md('---', 'name: 42', 'description: d', 'color: [1]', '---', 'p'));
    expect(definition.name).toBe('42');
    expect(definition.color).toBeUndefined();
    expect(warnings).toMatchObject([{ kind: 'field-ignored', field: 'color', line: 4 }]);
  });

  it('reports a key given twice (invalid YAML) and keeps the later value', () => {
    const { definition, warnings } = parse(
      md('---', 'name: a', 'description: first', 'description: second', '---', 'p'),
    );
    expect(definition.description).toBe('second');
    expect(warnings).toMatchObject([{ kind: 'duplicate-field', field: 'description', line: 4 }]);
  });

  it.each([
    ['comma string', 'tools: Read, Grep, Bash(git diff:*)', ['Read', 'Grep', 'Bash(git diff:*)']],
    ['single token', 'tools: mcp__x__*', ['mcp__x__*']],
    ['flow list', 'tools: ["Read", Grep]', ['Read', 'Grep']],
    ['block list', 'tools:\n  - read\n  - glob', ['read', 'glob']],
    ['quoted star', 'tools: "*"', ['*']],
    ['empty list', 'tools: []', []],
  ])('reads tools as a %s', (_shape, line, expected) => {
    expect(withFields(line).definition.tools).toEqual(expected);
  });

  it('reads an unquoted tools: * (a YAML alias error) as all tools, with a warning', () => {
    const { definition, warnings } = withFields('tools: *');
    expect(definition.tools).toEqual(['*']);
    expect(warnings).toMatchObject([{ kind: 'yaml-repaired', field: 'tools', line: 4 }]);
  });

  it('treats an empty tools value as absent, with a warning', () => {
    const { definition, warnings } = withFields('tools:');
    expect(definition.tools).toBeUndefined();
    expect(warnings).toMatchObject([{ kind: 'field-ignored', field: 'tools' }]);
  });

  it.each([
    ['inherit', 'inherit', []],
    ['Sonnet', 'sonnet', []],
    ['small', 'small', []],
    ['plan', 'plan', []],
    ['claude-sonnet-4-5-20250929', 'claude-sonnet-4-5-20250929', []],
    ['Claude Sonnet 4.5', 'sonnet', ['model-display-name']],
    ['Claude Sonnet 4.5 (copilot)', 'sonnet', ['model-display-name']],
    ['fable', 'fable', ['model-unrecognised']],
  ])('reads model %j as %j', (written, expected, warningKinds) => {
    const { definition, warnings } = withFields(`model: ${written}`);
    expect(definition.model).toBe(expected);
    expect(warnings.map((w) => w.kind)).toEqual(warningKinds);
  });

  it('keeps unknown keys in extra with a warning per key (and a did-you-mean)', () => {
    const { definition, warnings } = withFields('capabilities: [x, y]', 'max-turns: 3');
    expect(definition.extra).toEqual({ capabilities: ['x', 'y'], 'max-turns': 3 });
    expect(definition.maxTurns).toBeUndefined();
    expect(warnings).toMatchObject([
      { kind: 'unknown-field', field: 'capabilities', line: 4 },
      { kind: 'unknown-field', field: 'max-turns', line: 5 },
    ]);
    expect(warnings[1]!.message).toContain("did you mean 'maxTurns'");
  });

  it('uses the canonical key when an alias is given too, and says so', () => {
    const { definition, warnings } = withFields('max_turns: 3', 'maxTurns: 4');
    expect(definition.maxTurns).toBe(4);
    expect(warnings).toMatchObject([{ kind: 'duplicate-field', field: 'max_turns', line: 4 }]);
  });
});

describe('parseAgentFile: names', () => {
  it('falls back to the file name when there is no name', () => {
    const { definition, warnings } = parse(md('---', 'description: d', '---', 'p'), 'x/My_Agent.md');
    expect(definition.name).toBe('my-agent');
    expect(warnings).toMatchObject([{ kind: 'name-from-file', field: 'name' }]);
  });

  it('keeps a name that differs from the file name', () => {
    expect(
      parse(md('---', 'name: electron-pro', 'description: d', '---', 'p'), 'electorn-pro.md').definition.name,
    ).toBe('electron-pro');
  });

  it.each([
    ['Python Security Expert', 'python-security-expert'],
    ['CSharpExpert', 'c-sharp-expert'],
    ['Python DevOps/CI-CD Expert', 'python-devops-ci-cd-expert'],
    ['microsoft_learn_contributor', 'microsoft-learn-contributor'],
    ['powershell-5.1-expert', 'powershell-5-1-expert'],
  ])('normalises the name %j to %j with a warning', (written, expected) => {
    const { definition, warnings } = parse(md('---', `name: ${written}`, 'description: d', '---', 'p'));
    expect(definition.name).toBe(expected);
    expect(warnings).toMatchObject([{ kind: 'name-normalised', line: 2 }]);
  });

  it('uses the file name for a name with nothing usable, and fails without a file', () => {
    expect(
      parse(md('---', 'name: レビュー', 'description: d', '---', 'p'), 'reviewer.md').definition.name,
    ).toBe('reviewer');
    const error = errorOf(() => parseAgentFile(md('---', 'name: レビュー', 'description: d', '---', 'p')));
    expect(error.field).toBe('name');
    expect(error.message).toContain('lowercase letters, digits and hyphens');
  });
});

describe('parseAgentFile: errors name file, line and field', () => {
  it('reports a file without front matter', () => {
    const error = errorOf(() => parse('# Just markdown\n\n- name: x\n', 'agents/plain.md'));
    expect(error).toMatchObject({ file: 'agents/plain.md', line: 1, code: 'DEFINITION_INVALID' });
    expect(error.message).toMatch(/^agents\/plain\.md:1: no front matter found/);
  });

  it('reports unclosed front matter at its opening line', () => {
    const error = errorOf(() => parse(md('', '---', 'name: a', 'description: d')));
    expect(error).toMatchObject({ line: 2 });
    expect(error.message).toContain('never closed');
  });

  it('refuses front matter in another language (no eval of ---js)', () => {
    const error = errorOf(() => parse(md('---js', '{ name: "a" }', '---', 'p')));
    expect(error.message).toContain("'js' is not supported");
  });

  it('reports a missing description at the opening fence', () => {
    const error = errorOf(() => parse(md('---', 'name: a', '---', 'p')));
    expect(error).toMatchObject({ field: 'description', line: 1 });
  });

  it.each([
    ['maxTurns: 0', 'maxTurns', 'a whole number of turns of at least 1'],
    ['max_turns: many', 'max_turns', 'a whole number of turns'],
    ['tokenBudget: -5', 'tokenBudget', 'a whole number of tokens'],
    ['timeout: soon', 'timeout', 'milliseconds'],
    ['timeout_mins: 0', 'timeout_mins', 'minutes'],
    ['background: maybe', 'background', 'true or false'],
    ['tools: { read: true }', 'tools', 'comma-separated'],
    ['outputSchema: [1, 2]', 'outputSchema', 'a JSON Schema object'],
  ])('reports %j with the line, the field and what was expected', (line, field, expected) => {
    const error = errorOf(() => withFields(line));
    expect(error).toMatchObject({ file: 'agents/x.md', line: 4, field });
    expect(error.message).toContain(`agents/x.md:4: field '${field}' must be`);
    expect(error.message).toContain(expected);
  });

  it('reports an invalid JSON Schema with the field and line', () => {
    const error = errorOf(() => withFields('outputSchema:', '  type: obj'));
    expect(error).toMatchObject({ field: 'outputSchema', line: 4 });
    expect(error.message).toContain('not a valid JSON Schema');
    expect(error.message).toContain('type');
  });

  it('reports front matter that is not a mapping', () => {
    const error = errorOf(() => parse(md('---', '- a', '- b', '---', 'p')));
    expect(error.message).toContain("must be 'key: value' fields");
  });
});
