import type { TaskStatusRecord } from '@troupe/core';
import { type Parsed, parseStoredDocument } from '@troupe/core/store';
import { taskIdProblem } from './task-file-names.js';

// The file store keeps documents as JSON text, read with core's `parseStoredDocument` (which also
// upgrades version-1 documents); the status log's lines are checked here besides.

/**
 * Parses one line of `tasks.jsonl`. A record whose task id cannot name a file in the store (a path
 * such as `../../escaped`) is refused as corrupt, so that no reader uses it as a path.
 */
export function parseStatusLine(text: string): Parsed<TaskStatusRecord> {
  const parsed = parseStoredDocument('status', text);
  if (!parsed.ok) return parsed;
  const problem = taskIdProblem(parsed.value.taskId);
  return problem === undefined
    ? parsed
    : { ok: false, code: 'PERSISTENCE_CORRUPT', message: `The status record's ${problem}` };
}
