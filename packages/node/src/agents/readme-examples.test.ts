import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseAgentFile } from '../../../core/src/definitions/parse-agent-file.js';
import { parseAgentJson } from '../../../core/src/definitions/parse-agent-json.js';

// The "Writing agents" examples in @troupe/core's README must stay valid.
const readme = readFileSync(fileURLToPath(new URL('../../../core/README.md', import.meta.url)), 'utf8');
const blocks = [...readme.matchAll(/```(\w*)\n([\s\S]*?)```/g)].map((match) => ({
  language: match[1],
  body: match[2]!,
}));

describe('README agent examples', () => {
  it('the Markdown example parses without warnings', () => {
    const example = blocks.find((block) => block.body.startsWith('---\n'));
    expect(example).toBeDefined();
    const { definition, warnings } = parseAgentFile(example!.body, { path: 'test-runner.md' });
    expect(warnings).toEqual([]);
    expect(definition).toMatchObject({
      name: 'test-runner',
      tools: ['read', 'grep', 'glob', 'bash'],
      model: 'haiku',
      maxTurns: 15,
    });
  });

  it('the JSON example parses without warnings', () => {
    const example = blocks.find((block) => block.language === 'json');
    expect(example).toBeDefined();
    const { definition, warnings } = parseAgentJson(example!.body, { path: 'reviewer.json' });
    expect(warnings).toEqual([]);
    expect(definition).toMatchObject({ name: 'reviewer', systemPrompt: 'You review code.' });
  });
});
