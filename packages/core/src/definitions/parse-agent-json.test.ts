import { describe, expect, it } from 'vitest';
import { DefinitionError } from '../errors.js';
import { parseAgentJson } from './parse-agent-json.js';
import { parseAgentSource } from './parse-agent-source.js';

describe('parseAgentJson', () => {
  it('reads { name, description, tools, prompt } and the other fields', () => {
    // Fields JSON and troupe spell alike; max_turns and prompt are renamed, the prompt trimmed.
    const same = {
      name: 'reviewer',
      description: 'Reviews code.',
      tools: ['read', 'grep'],
      model: 'haiku',
      outputSchema: { type: 'object', required: ['ok'] },
    };
    const text = JSON.stringify({ ...same, max_turns: 4, prompt: 'You review.\n' }, null, 2);
    const { definition, warnings } = parseAgentJson(text, { path: 'r.json' });
    expect(warnings).toEqual([]);
    expect(definition).toEqual({ ...same, maxTurns: 4, systemPrompt: 'You review.', path: 'r.json' });
  });

  it('accepts systemPrompt, a comma-string tools, a BOM and CRLF', () => {
    const text =
      '\uFEFF{\r\n  "description": "d",\r\n  "tools": "read, glob",\r\n  "systemPrompt": "p"\r\n}\r\n';
    const { definition, warnings } = parseAgentJson(text, { path: 'dir/Json_Agent.json' });
    expect(definition).toMatchObject({ name: 'json-agent', tools: ['read', 'glob'], systemPrompt: 'p' });
    expect(warnings.map((w) => w.kind)).toEqual(['name-from-file']);
  });

  it('names the line of a JSON syntax error', () => {
    const text = '{\n  "name": "a",\n  "description": "d",,\n  "prompt": "p"\n}';
    const error = (() => {
      try {
        parseAgentJson(text, { path: 'bad.json' });
      } catch (caught) {
        return caught as DefinitionError;
      }
      throw new Error('expected an error');
    })();
    expect(error).toBeInstanceOf(DefinitionError);
    expect(error).toMatchObject({ file: 'bad.json', line: 3 });
    expect(error.message).toMatch(/^bad\.json:3: not valid JSON/);
  });

  it('names the line and field of a bad value, and rejects a non-object', () => {
    const text = '{\n  "name": "a",\n  "description": "d",\n  "maxTurns": -1,\n  "prompt": "p"\n}';
    expect(() => parseAgentJson(text, { path: 'a.json' })).toThrow(/a\.json:4: field 'maxTurns' must be/);
    expect(() => parseAgentJson('[1]', { path: 'a.json' })).toThrow(/expected a JSON object/);
    expect(() => parseAgentJson('{"name":"a","description":"d","prompt":3}', { path: 'a.json' })).toThrow(
      /field 'prompt' must be the system prompt as a string/,
    );
  });
});

describe('parseAgentSource', () => {
  it('picks the parser by extension, or by content without a path', () => {
    const json = '{"name":"a","description":"d","prompt":"p"}';
    const markdown = '---\nname: b\ndescription: d\n---\np';
    expect(parseAgentSource(json, { path: 'x/a.JSON' }).definition.name).toBe('a');
    expect(parseAgentSource(markdown, { path: 'x/b.md' }).definition.name).toBe('b');
    expect(parseAgentSource(json).definition.name).toBe('a');
    expect(parseAgentSource(markdown).definition.name).toBe('b');
    expect(() => parseAgentSource(markdown, { path: 'b.json' })).toThrow(DefinitionError);
  });
});
