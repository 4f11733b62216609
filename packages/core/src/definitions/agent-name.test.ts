import { describe, expect, it } from 'vitest';
import { agentNameFromPath, isValidAgentName, normaliseAgentName } from './agent-name.js';

describe('agent names', () => {
  it('accepts lowercase-with-hyphens up to 64 characters only', () => {
    expect(isValidAgentName('code-reviewer')).toBe(true);
    expect(isValidAgentName('a1-b2')).toBe(true);
    for (const bad of ['Code', 'a--b', '-a', 'a-', 'a_b', 'a b', '', 'x'.repeat(65)])
      expect(isValidAgentName(bad)).toBe(false);
  });

  it('normalises what it can', () => {
    expect(normaliseAgentName('  Café Reviewer ')).toBe('cafe-reviewer');
    expect(normaliseAgentName('APIDesigner')).toBe('api-designer');
    expect(normaliseAgentName('a__b--c')).toBe('a-b-c');
    expect(normaliseAgentName('レビュー')).toBe('');
    expect(normaliseAgentName(`${'word-'.repeat(20)}end`).length).toBeLessThanOrEqual(64);
    expect(isValidAgentName(normaliseAgentName(`${'word-'.repeat(20)}end`))).toBe(true);
  });

  it('derives a name from a file path', () => {
    expect(agentNameFromPath('/x/.claude/agents/My_Agent.md')).toBe('my-agent');
    expect(agentNameFromPath('C:\\agents\\helper.json')).toBe('helper');
  });
});
