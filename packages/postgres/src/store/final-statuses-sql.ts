import { FINAL_STATUSES, isFinalStatus, TASK_STATUSES } from '@troupe/core/store';

const sqlList = (statuses: readonly string[]) => `(${statuses.map((status) => `'${status}'`).join(', ')})`;

/**
 * Core's final statuses as an SQL list, `('completed', 'failed', 'cancelled')`, for
 * `status IN …` in queries. (Released migrations keep their own text.)
 */
export const FINAL_STATUS_LIST = sqlList(FINAL_STATUSES);

/**
 * Core's statuses of a task that has not ended, `('queued', 'running', 'awaitingApproval')`: a
 * query for unfinished tasks says `status IN` this list, which the status index answers, where
 * `status NOT IN` the final ones reads every row of the table.
 */
export const UNFINISHED_STATUS_LIST = sqlList(TASK_STATUSES.filter((status) => !isFinalStatus(status)));
