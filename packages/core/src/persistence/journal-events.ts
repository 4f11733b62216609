/**
 * Names of the journal's events across schema versions. Version 1 used XState-style constants
 * (`MODEL_RESPONDED`); version 2 uses the project's `noun.verb` vocabulary, the same names the
 * machine consumes. Reading a version-1 journal maps its names through this table.
 */
export const VERSION_1_EVENT_NAMES: Readonly<Record<string, string>> = Object.freeze({
  START: 'task.started',
  MODEL_RESPONDED: 'model.responded',
  MODEL_FAILED: 'model.failed',
  TOOL_STARTED: 'tool.started',
  TOOL_FINISHED: 'tool.finished',
  APPROVE: 'approval.granted',
  DENY: 'approval.denied',
  TIMEOUT: 'deadline.passed',
  CANCEL: 'cancel.requested',
});

/** The version-2 name of a journal event type (unchanged when it is already one). */
export function currentEventName(type: string): string {
  return VERSION_1_EVENT_NAMES[type] ?? type;
}
