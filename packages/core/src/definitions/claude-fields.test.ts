import { describe, expect, it } from 'vitest';
import { DefinitionError } from '../errors.js';
import { parseAgentFile } from './parse-agent-file.js';
import { validateAgentDefinition } from './validate-agent-definition.js';

const file = (frontMatter: string, body = 'Do the work.') =>
  `---\n${frontMatter.startsWith('name:') ? '' : 'name: x\n'}${frontMatter}\n---\n${body}\n`;

describe("Claude Code's agent fields", () => {
  it('reads every documented field into a typed definition with no unknown-field warning', () => {
    const { definition, warnings } = parseAgentFile(
      file(
        [
          'name: auditor',
          'description: Audits code.',
          'tools: Read, Grep, Agent(explore, plan)',
          'disallowedTools: Write',
          'model: haiku',
          'permissionMode: acceptEdits',
          'mcpServers: [github]',
          'maxTurns: 7',
          'skills: [security-checklist, owasp]',
          'initialPrompt: Start with auth.',
          'memory: project',
          'effort: high',
          'background: true',
          'isolation: worktree',
          'color: purple',
          'hooks:',
          '  PreToolUse:',
          '    - matcher: "Bash"',
          '      hooks:',
          '        - type: command',
          '          command: ./check.sh',
          '          timeout: 5',
        ].join('\n'),
      ),
      { path: 'agents/auditor.md' },
    );
    expect(warnings).toEqual([]);
    expect(definition).toMatchObject({
      tools: ['Read', 'Grep', 'Agent(explore, plan)'],
      permissionMode: 'acceptEdits',
      skills: ['security-checklist', 'owasp'],
      initialPrompt: 'Start with auth.',
      memory: 'project',
      effort: 'high',
      background: true,
      isolation: 'worktree',
      color: 'purple',
      hooks: {
        PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: './check.sh', timeout: 5 }] }],
      },
    });
    expect(definition.extra).toBeUndefined();
  });

  it('accepts snake_case aliases and any letter case in the values', () => {
    const { definition, warnings } = parseAgentFile(
      file(
        'description: d\npermission_mode: DONTASK\ninitial_prompt: hi\neffort: Max\nmemory: Local\nskills: a, b',
      ),
      { path: 'x.md' },
    );
    expect(warnings).toEqual([]);
    expect(definition).toMatchObject({
      permissionMode: 'dontAsk',
      initialPrompt: 'hi',
      effort: 'max',
      memory: 'local',
      skills: ['a', 'b'],
    });
  });

  it('drops a value that is not documented with a warning naming file, line and what is expected', () => {
    const { definition, warnings } = parseAgentFile(
      file('description: d\npermissionMode: yolo\neffort: 11\nmemory: team\nisolation: container'),
      { path: 'agents/x.md' },
    );
    expect(definition.permissionMode).toBeUndefined();
    expect(definition.effort).toBeUndefined();
    expect(definition.memory).toBeUndefined();
    expect(definition.isolation).toBeUndefined();
    expect(warnings.map((warning) => [warning.kind, warning.line, warning.field])).toEqual([
      ['field-ignored', 4, 'permissionMode'],
      ['field-ignored', 5, 'effort'],
      ['field-ignored', 6, 'memory'],
      ['field-ignored', 7, 'isolation'],
    ]);
    expect(warnings[0]!.message).toBe(
      'agents/x.md:4: \'permissionMode\' must be one of default, acceptEdits, plan, auto, dontAsk, bypassPermissions; ignored "yolo".',
    );
  });

  it('keeps the well-formed hooks and warns for each malformed entry, naming file, line and path', () => {
    const { definition, warnings } = parseAgentFile(
      file(
        [
          'description: d',
          'hooks:',
          '  PreToolUse:',
          '    - matcher: Bash',
          '      hooks:',
          '        - type: command',
          '          command: ./ok.sh',
          '        - type: agent',
          '          prompt: is this fine?',
          '        - type: command',
          '          timeout: -1',
          '          command: ./bad-timeout.sh',
          '    - matcher: 3',
          '      hooks: []',
          '  PostToolUse: not-a-list',
          '  OnSave:',
          '    - hooks: [{ type: command, command: x }]',
          '  Stop:',
          '    - hooks: [{ type: command, command: ./stop.sh }]',
        ].join('\n'),
      ),
      { path: 'a.md' },
    );
    expect(definition.hooks).toEqual({
      PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: './ok.sh' }] }],
      Stop: [{ hooks: [{ type: 'command', command: './stop.sh' }] }],
    });
    expect(warnings.every((warning) => warning.kind === 'field-ignored' && warning.line === 4)).toBe(true);
    expect(warnings.map((warning) => warning.message.split(': ')[1])).toEqual([
      'hooks.PreToolUse[0].hooks[1].type',
      'hooks.PreToolUse[0].hooks[2].timeout',
      'hooks.PreToolUse[1].matcher',
      'hooks.PostToolUse',
      'hooks.OnSave',
    ]);
    expect(warnings[0]!.message.startsWith('a.md:4: ')).toBe(true);
  });

  it('keeps http and prompt hooks (Claude Code hook types troupe runs)', () => {
    const { definition, warnings } = parseAgentFile(
      file(
        [
          'description: d',
          'hooks:',
          '  Stop:',
          '    - hooks:',
          '        - type: prompt',
          '          prompt: Are the tests green? $ARGUMENTS',
          '          timeout: 20',
          '        - type: http',
          '          url: http://127.0.0.1:9/hook',
        ].join('\n'),
      ),
      { path: 'a.md' },
    );
    expect(warnings).toEqual([]);
    expect(definition.hooks).toEqual({
      Stop: [
        {
          hooks: [
            { type: 'prompt', prompt: 'Are the tests green? $ARGUMENTS', timeout: 20 },
            { type: 'http', url: 'http://127.0.0.1:9/hook' },
          ],
        },
      ],
    });
  });

  it('a hooks value that is not an object is a warning, never a crash', () => {
    const { definition, warnings } = parseAgentFile(file('description: d\nhooks: rm -rf /'), {
      path: 'a.md',
    });
    expect(definition.hooks).toBeUndefined();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.message).toContain('a.md:4: hooks: expected an object of events');
  });

  it('checks the fields of a definition given in code', () => {
    const base = { name: 'x', description: 'd', systemPrompt: 'p' };
    expect(validateAgentDefinition({ ...base, permissionMode: 'plan', effort: 'low' }).permissionMode).toBe(
      'plan',
    );
    expect(() => validateAgentDefinition({ ...base, permissionMode: 'yolo' })).toThrow(
      /'permissionMode' must be one of default, acceptEdits/,
    );
    expect(() =>
      validateAgentDefinition({ ...base, hooks: { PreToolUse: [{ hooks: [{ type: 'command' }] }] } }),
    ).toThrow(DefinitionError);
  });
});

describe('parseAgentFile with a JSON agent', () => {
  const json = JSON.stringify(
    { name: 'reviewer', description: 'Reviews code.', tools: ['read'], prompt: 'Review it.', effort: 'low' },
    null,
    2,
  );

  it('parses a .json path as the JSON agent format', () => {
    const { definition, warnings } = parseAgentFile(json, { path: 'agents/reviewer.json' });
    expect(warnings).toEqual([]);
    expect(definition).toMatchObject({
      name: 'reviewer',
      tools: ['read'],
      systemPrompt: 'Review it.',
      effort: 'low',
      path: 'agents/reviewer.json',
    });
  });

  it('parses JSON text without a path, and names the line of a JSON syntax error', () => {
    expect(parseAgentFile(json).definition.name).toBe('reviewer');
    expect(() => parseAgentFile('{\n  "name": "x",\n  oops\n}', { path: 'bad.json' })).toThrow(
      /bad\.json:3: not valid JSON/,
    );
  });

  it('still reads a .md path as Markdown', () => {
    expect(() => parseAgentFile(json, { path: 'reviewer.md' })).toThrow(/no front matter found/);
  });
});
