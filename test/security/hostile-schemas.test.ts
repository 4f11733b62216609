// Issue #14, item 15 (and the schema half of item 11): an input or output schema that refers to
// itself without descending into the value, or that nests 20,000 levels deep, or that an alias bomb
// expanded, is refused when the agent is defined, by a DefinitionError naming the agent and field,
// never a RangeError from spawn or createRuntime.
import { createRuntime, DefinitionError, parseAgentFile } from '@troupe/core';
import { scriptedModel } from '@troupe/core/testing';
import { describe, expect, it } from 'vitest';

const model = scriptedModel(() => ({
  content: [{ type: 'text', text: 'ok' }],
  usage: { input: 1, output: 1 },
}));

function nested(levels: number): Record<string, unknown> {
  let schema: Record<string, unknown> = { type: 'string' };
  for (let level = 0; level < levels; level++) schema = { type: 'object', properties: { a: schema } };
  return schema;
}

function refusal(inputSchema: Record<string, unknown>): unknown {
  try {
    createRuntime({ model, agents: [{ name: 'victim', description: 'd', systemPrompt: 's', inputSchema }] });
    return undefined;
  } catch (error) {
    return error;
  }
}

describe('hostile input schemas', () => {
  it.each([
    ['{"$ref": "#"}', { $ref: '#' }, /refers to itself.*without descending/],
    [
      'allOf loop through $defs',
      { $defs: { x: { allOf: [{ $ref: '#/$defs/x' }] } }, $ref: '#/$defs/x' },
      /refers to itself/,
    ],
    ['20,000 levels deep', nested(20_000), /nested more than \d+ levels/],
  ])('%s is a DefinitionError naming the agent, at createRuntime', (_name, schema, message) => {
    const error = refusal(schema);
    expect(error).toBeInstanceOf(DefinitionError);
    expect((error as Error).message).toMatch(/agent 'victim'/);
    expect((error as Error).message).toMatch(/inputSchema/);
    expect((error as Error).message).toMatch(message);
  });

  it('a recursive schema that descends into the value is still fine', () => {
    const tree = { type: 'object', properties: { children: { type: 'array', items: { $ref: '#' } } } };
    expect(refusal(tree)).toBeUndefined();
  });

  it('a 2^30-node schema built from YAML aliases is refused at once', () => {
    const levels = Array.from({ length: 30 }, (_, index) =>
      index === 0
        ? '  l0: &l0 {type: string}'
        : `  l${index}: &l${index} {allOf: [*l${index - 1}, *l${index - 1}]}`,
    );
    const text = [
      '---',
      'name: bomb',
      'description: d',
      'inputSchema:',
      '  $defs:',
      ...levels.map((l) => `  ${l}`),
      '  $ref: "#/$defs/l29"',
      '---',
      'Prompt.',
    ].join('\n');
    const start = performance.now();
    expect(() => parseAgentFile(text, { path: 'bomb.md' })).toThrow(/bomb\.md.*(expands to more than|alias)/);
    expect(performance.now() - start).toBeLessThan(2_000);
  });
});
