import { describe, expect, it } from 'vitest';
import { parseAgentFile } from './parse-agent-file.js';

// Real agent files break strict YAML in these ways (see shared/corpus/claude-agents/SOURCES.md);
// each must load, with a warning where it was repaired.
const md = (...lines: string[]) => lines.join('\n');
const parse = (text: string, path = 'agents/x.md') => parseAgentFile(text, { path });
const kinds = (text: string, path?: string) => parse(text, path).warnings.map((w) => w.kind);

describe('parseAgentFile: real-world oddities', () => {
  it('loads a file with a UTF-8 BOM and CRLF line ends', () => {
    const text =
      '\uFEFF---\r\nname: bom-agent\r\ndescription: Has a BOM.\r\ntools: Read, Grep\r\n---\r\n\r\nLine one.\r\nLine two.\r\n';
    const { definition, warnings } = parse(text);
    expect(definition).toMatchObject({
      name: 'bom-agent',
      description: 'Has a BOM.',
      tools: ['Read', 'Grep'],
      systemPrompt: 'Line one.\nLine two.',
    });
    expect(warnings).toEqual([]);
  });

  it('loads a description with an unquoted ": " inside, with a warning naming line and field', () => {
    const { definition, warnings } = parse(
      md(
        '---',
        'name: gdpr',
        "description: Use for privacy. Triggers on: 'GDPR', 'CCPA'.",
        'tools: Read',
        '---',
        'p',
      ),
    );
    expect(definition.description).toBe("Use for privacy. Triggers on: 'GDPR', 'CCPA'.");
    expect(definition.tools).toEqual(['Read']);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({
      kind: 'yaml-repaired',
      field: 'description',
      line: 3,
      file: 'agents/x.md',
    });
    expect(warnings[0]!.message).toMatch(/^agents\/x\.md:3: 'description' is not valid YAML/);
  });

  it('repairs a flow list missing its closing bracket: no tool is lost, and the line is named', () => {
    const { definition, warnings } = parse(
      md('---', 'name: broken-list', 'description: Reads things.', 'tools: [read, grep', '---', 'p'),
    );
    expect(definition.tools).toEqual(['read', 'grep']);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ kind: 'yaml-repaired', field: 'tools', line: 4 });
    expect(warnings[0]!.message).toMatch(/^agents\/x\.md:4: 'tools' is a list .*read it as \[read, grep\]/);
  });

  it('repairs a flow list with a stray quote and keeps scoped tools whole', () => {
    const { definition } = parse(
      md('---', 'name: q', 'description: d', 'tools: ["Read", Bash(git diff:*), \'Grep]', '---', 'p'),
    );
    expect(definition.tools).toEqual(['Read', 'Bash(git diff:*)', 'Grep']);
  });

  it('loads a description starting with * (a YAML alias)', () => {
    const { definition, warnings } = parse(
      md('---', 'name: architect', 'description: **DESIGN SPECIALIST**: Designs systems.', '---', 'p'),
    );
    expect(definition.description).toBe('**DESIGN SPECIALIST**: Designs systems.');
    expect(warnings.map((w) => w.kind)).toEqual(['yaml-repaired']);
  });

  it('loads an unquoted multi-line description with indented "user:" lines', () => {
    const { definition } = parse(
      md(
        '---',
        'name: a',
        'description: Improves prompts.',
        '',
        '  <example>',
        '  user: summarize emails',
        '  assistant: done',
        '  </example>',
        'tools: Read',
        '---',
        'p',
      ),
    );
    expect(definition.description).toBe(
      'Improves prompts.\n<example> user: summarize emails assistant: done </example>',
    );
    expect(definition.tools).toEqual(['Read']);
  });

  it('loads a description continued at column 0 after a blank line (Japanese text)', () => {
    const { definition, warnings } = parse(
      md(
        '---',
        'name: go-reviewer',
        'description: 専門Goコードレビュアー。すべてのGo',
        '',
        'コード変更に使用してください。',
        'tools: ["Read"]',
        '---',
        'p',
      ),
    );
    expect(definition.description).toBe('専門Goコードレビュアー。すべてのGo\nコード変更に使用してください。');
    expect(definition.tools).toEqual(['Read']);
    expect(warnings.map((w) => w.kind)).toEqual(['yaml-repaired']);
  });

  it('loads indented front matter preceded by a blank line, dedenting the body', () => {
    const { definition, warnings } = parse(
      md(
        '',
        '    ---',
        '    name: sqs-expert',
        '    description: SQS.',
        '    ---',
        '',
        '    ## Focus',
        '    - queues',
      ),
    );
    expect(definition).toMatchObject({
      name: 'sqs-expert',
      description: 'SQS.',
      systemPrompt: '## Focus\n- queues',
    });
    expect(warnings.map((w) => w.kind)).toEqual(['front-matter-position', 'front-matter-indented']);
  });

  it('accepts a closing fence longer than ---', () => {
    const { definition, warnings } = parse(
      md('---', 'name: a', 'description: d', '-------------', '', '# Body'),
    );
    expect(definition.systemPrompt).toBe('# Body');
    expect(warnings).toMatchObject([{ kind: 'front-matter-fence', line: 4 }]);
  });

  it('reads block-scalar descriptions and keeps Japanese text', () => {
    const { definition } = parse(md('---', 'name: a', 'description: |', '  一行目', '  二行目', '---', 'p'));
    expect(definition.description).toBe('一行目\n二行目');
  });

  it('warns about an empty body', () => {
    expect(kinds(md('---', 'name: a', 'description: d', '---', ''))).toEqual(['empty-prompt']);
  });
});
