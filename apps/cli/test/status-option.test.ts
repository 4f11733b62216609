import { describe, expect, it } from 'vitest';
import { statusOption } from '../src/commands/status-option.js';
import { UsageError } from '../src/errors.js';

describe('--status', () => {
  it('takes a task status and refuses anything else, naming every status', () => {
    expect(statusOption(undefined)).toBeUndefined();
    expect(statusOption('awaitingApproval')).toBe('awaitingApproval');
    expect(() => statusOption('done')).toThrow(UsageError);
    expect(() => statusOption('done')).toThrow(
      '--status must be one of queued, running, awaitingApproval, completed, failed, cancelled, not "done".',
    );
  });
});
