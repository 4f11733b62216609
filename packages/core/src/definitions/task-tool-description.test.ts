import { describe, expect, it } from 'vitest';
import { createAgentRegistry } from './agent-registry.js';
import { compactDescription, describeTools, taskToolDescription } from './task-tool-description.js';

describe('compactDescription', () => {
  it('drops <example> blocks, literal \\n escapes and a dangling "Examples:"', () => {
    const description =
      'Use this agent to review code.\\n\\nExamples:\\n<example>\\nContext: user wrote code\\nuser: review\\n</example>\\n<example>more</example>';
    expect(compactDescription(description)).toBe('Use this agent to review code.');
  });

  it('drops an unclosed <example> to the end', () => {
    expect(compactDescription('Debugs tests. <example>user: fix it')).toBe('Debugs tests.');
  });

  it('caps the length at a sentence or word end', () => {
    const long = `${'First sentence is here. '.repeat(3)}${'word '.repeat(100)}`;
    const sentence = compactDescription(long, 100);
    expect(sentence).toBe('First sentence is here. First sentence is here. First sentence is here.');
    const words = compactDescription('alpha '.repeat(50), 40);
    expect(words.length).toBeLessThanOrEqual(40);
    expect(words.endsWith('alpha…')).toBe(true);
  });
});

describe('taskToolDescription', () => {
  it('lists each agent with a compact description and its tools, and the names for the enum', () => {
    const registry = createAgentRegistry({
      definitions: [
        {
          name: 'plan',
          description: 'Plans.\\n<example>x</example>',
          systemPrompt: '',
          tools: ['read', 'grep'],
        },
        { name: 'general-purpose', description: 'Does anything.', systemPrompt: '' },
        { name: 'fixer', description: 'Fixes.', systemPrompt: '', tools: ['*'], disallowedTools: ['bash'] },
      ],
    });
    const { text, names } = taskToolDescription(registry);
    expect(names).toEqual(['fixer', 'general-purpose', 'plan']);
    expect(text).toBe(
      [
        'Available agent types and the tools they have access to (pass the name as subagent_type):',
        '- fixer: Fixes. (Tools: all tools except bash)',
        '- general-purpose: Does anything. (Tools: all tools)',
        '- plan: Plans. (Tools: read, grep)',
      ].join('\n'),
    );
  });

  it('says so when there are no agents', () => {
    expect(taskToolDescription(createAgentRegistry())).toEqual({
      text: 'No agent types are available.',
      names: [],
    });
  });

  it('describes tool lists with denials applied', () => {
    expect(describeTools({ tools: ['read', 'Bash'], disallowedTools: ['bash'] })).toBe('read');
    expect(describeTools({ tools: [] })).toBe('none');
  });
});
