// The pattern engine as a browser gets it: not preloaded (the `browser` condition of core's
// `#pattern-engine-preload`), loaded by `withPatternEngine` only for work that compiles a pattern.
import { describe, expect, it, vi } from 'vitest';
import { DefinitionError } from '../errors.js';
import { checkFinalAnswer } from './check-final-answer.js';
import { compileJsonSchema } from './compile-json-schema.js';
import { parseAgentFile } from './parse-agent-file.js';
import { loadPatternEngine, patternEngineLoaded, withPatternEngine } from './pattern-engine.js';

vi.mock('#pattern-engine-preload', () => ({ preloadedPatternEngine: undefined }));

const codeSchema = {
  type: 'object',
  required: ['code'],
  properties: { code: { type: 'string', pattern: '^[A-Z]{2}-\\d+$' } },
};
const agentFile = (pattern: string) =>
  `---\nname: coder\ndescription: Makes codes.\noutputSchema:\n  type: object\n  properties:\n    code: { type: string, pattern: '${pattern}' }\n---\nYou make codes.\n`;

describe('the pattern engine, loaded on demand', () => {
  it('compiles a schema without a pattern, and parses an agent file without one, loading nothing', async () => {
    const validate = compileJsonSchema({ type: 'object', required: ['a'] });
    expect(validate({})).toEqual({ ok: false, errors: ['(root): missing required property "a"'] });
    let runs = 0;
    const parsed = await withPatternEngine(() => {
      runs++;
      return parseAgentFile('---\nname: plain\ndescription: Plain.\n---\nHi.\n');
    });
    expect(parsed.definition.name).toBe('plain');
    expect(runs).toBe(1);
    expect(patternEngineLoaded()).toBe(false);
  });

  it('refuses, naming the field and what to do, to compile a pattern before the engine is loaded', () => {
    const compile = () =>
      compileJsonSchema(codeSchema, { file: 'coder.md', field: 'outputSchema', agent: 'coder' });
    expect(compile).toThrow(DefinitionError);
    expect(compile).toThrow(
      /^coder\.md: agent 'coder': outputSchema has a regular expression \(pattern or patternProperties\) that cannot be checked yet: .*withPatternEngine/,
    );
    // Syntax errors are still found without the engine.
    expect(() => compileJsonSchema({ type: 'string', pattern: '(' })).toThrow(
      /not a valid regular expression/,
    );
    expect(patternEngineLoaded()).toBe(false);
  });

  it('loads the engine when the work needs it and runs the work again; re2js then checks patterns', async () => {
    let runs = 0;
    const parsed = await withPatternEngine(() => {
      runs++;
      return parseAgentFile(agentFile('^[A-Z]{2}-\\d+$'), { path: 'coder.md' });
    });
    expect(runs).toBe(2);
    expect(patternEngineLoaded()).toBe(true);
    expect(parsed.definition.outputSchema).toMatchObject({
      properties: { code: { pattern: '^[A-Z]{2}-\\d+$' } },
    });
    expect(checkFinalAnswer('{"code": "AB-12"}', codeSchema)).toEqual({ ok: true, value: { code: 'AB-12' } });
    expect(checkFinalAnswer('{"code": "ab"}', codeSchema)).toMatchObject({
      ok: false,
      message: expect.stringMatching(
        /code: expected a string matching \/\^\[A-Z\]\{2\}-\\d\+\$\/, got a string \("ab"\)/,
      ),
    });
    // A pattern that needs backtracking is still refused, with the file and line.
    await expect(
      withPatternEngine(() => parseAgentFile(agentFile('^(?=a)a+$'), { path: 'coder.md' })),
    ).rejects.toThrow(/coder\.md:\d+: .*look-around or back-references/);
    await expect(loadPatternEngine()).resolves.toBeUndefined();
  });

  it('passes on the errors of the work that are not about the engine', async () => {
    await expect(withPatternEngine(() => parseAgentFile('---\nname: x\n---\n'))).rejects.toThrow(
      /'description' is required/,
    );
  });
});
