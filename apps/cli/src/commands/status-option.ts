import type { TaskStatus } from '@troupe/core';
import { isTaskStatus, TASK_STATUSES } from '@troupe/core/store';
import { UsageError } from '../errors.js';

/**
 * The `--status` filter of `troupe tasks list`, checked against core's one list of statuses. Checked
 * by the command, not the argument parser, so `troupe --help` loads nothing of the runtime.
 */
export function statusOption(value: string | undefined): TaskStatus | undefined {
  if (value === undefined) return undefined;
  if (!isTaskStatus(value))
    throw new UsageError(`--status must be one of ${TASK_STATUSES.join(', ')}, not "${value}".`);
  return value;
}
