import { describe, expect, it } from 'vitest';
import { createPermissionPolicy } from './permission-policy.js';
import { suggestCommandRule } from './suggest-command-rule.js';

describe('suggestCommandRule', () => {
  it('offers the program and its sub-command for one plain command', () => {
    expect(suggestCommandRule('npm test -- --watch')).toBe('Bash(npm test:*)');
    expect(suggestCommandRule('ls -la')).toBe('Bash(ls:*)');
    expect(suggestCommandRule('"git" status')).toBe('Bash(git status:*)');
  });

  it('offers nothing for a line a prefix rule would not cover', () => {
    for (const line of [
      'npm test && rm -rf /',
      'true; git push',
      'echo $(git push)',
      'FOO=1 npm test',
      'env npm test',
      '/usr/bin/git status',
      '$X push',
      'eval "git push"',
      'echo hi > out.txt',
      'ls | xargs rm',
      '',
    ])
      expect(suggestCommandRule(line), line).toBeUndefined();
  });

  it('what it offers, once allowed, approves the line it was offered for', () => {
    for (const line of ['npm test -- --watch', 'git log --oneline -5', 'cargo build --release']) {
      const rule = suggestCommandRule(line)!;
      const policy = createPermissionPolicy({ allow: [rule] });
      expect(policy.decide({ tool: 'bash', input: { command: line } } as never), line).toBe('approve');
    }
  });
});
