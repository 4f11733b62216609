import { describe, expect, it } from 'vitest';
import type { ApprovalRequest } from '../events.js';
import { createPermissionPolicy } from './permission-policy.js';

const bash = (command: string) => ({ tool: 'bash', input: { command } }) as unknown as ApprovalRequest;

// Core runs in browsers too: the shell parser behind permission rules must work there.
describe('permission rules in a browser', () => {
  it('parses shell lines and normalises paths as in Node', () => {
    const policy = createPermissionPolicy({
      allow: ['Bash(npm test:*)'],
      deny: ['Bash(git push:*)', 'Write(.env)'],
      root: '/work/project',
    });
    expect(policy.decide(bash('true && git push origin main'))).toMatchObject({ decision: 'deny' });
    expect(policy.decide(bash("bash -c 'env git push'"))).toMatchObject({ decision: 'deny' });
    expect(policy.decide(bash("eval 'x'"))).toMatchObject({ decision: 'deny' });
    expect(policy.decide(bash('npm test -- --watch'))).toBe('approve');
    expect(policy.decide(bash('npm test && rm -rf /'))).toBe('ask');
    const write = {
      tool: 'write',
      input: { file_path: 'x/../.env', content: '' },
    } as unknown as ApprovalRequest;
    expect(policy.decide(write)).toMatchObject({ decision: 'deny' });
  });
});
