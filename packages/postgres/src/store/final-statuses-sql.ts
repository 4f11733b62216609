import { FINAL_STATUSES } from '@troupe/core/store';

/**
 * Core's final statuses as an SQL list, `('completed', 'failed', 'cancelled')`, for
 * `status IN …` / `status NOT IN …` in queries. (Released migrations keep their own text.)
 */
export const FINAL_STATUS_LIST = `(${FINAL_STATUSES.map((status) => `'${status}'`).join(', ')})`;
