import type { JournalEntry, Message, StoredTask, TaskSnapshotDocument } from '@troupe/core';
import type { TaskRow } from './task-table.js';

/**
 * A table row for a task read from the store. An unfinished task's time is how long ago it was
 * created (it has no result yet to say how long it ran).
 */
export function storedTaskRow(task: StoredTask, now = Date.now()): TaskRow {
  const result = task.result;
  return {
    id: task.spec.taskId,
    agent: task.spec.agent,
    description: task.spec.description,
    status: task.status,
    ...(result ? { terminateReason: result.terminateReason } : {}),
    toolCalls: result?.toolCalls ?? 0,
    durationMs: result?.durationMs ?? Math.max(0, now - task.spec.createdAt),
    tokens: result?.usage.total ?? 0,
  };
}

/**
 * A task's conversation from the store: the snapshot's messages, or (without a usable snapshot)
 * the spec's messages followed by what the journal recorded.
 */
export function storedMessages(
  task: StoredTask,
  snapshot: TaskSnapshotDocument | undefined,
  journal: readonly JournalEntry[],
): Message[] {
  const fromSnapshot = (snapshot?.snapshot as { context?: { messages?: unknown } } | undefined)?.context
    ?.messages;
  if (Array.isArray(fromSnapshot) && (!snapshot || snapshot.journalLength >= journal.length))
    return fromSnapshot as Message[];
  const messages: Message[] = [...task.spec.messages];
  let results: Message | undefined;
  for (const { event } of journal) {
    if (event.type === 'MODEL_RESPONDED') {
      results = undefined;
      messages.push({ role: 'assistant', content: event.response.content });
    } else if (event.type === 'TOOL_FINISHED') {
      if (!results) {
        results = { role: 'user', content: [] };
        messages.push(results);
      }
      (results.content as Exclude<Message['content'], string>).push(event.result);
    }
  }
  return messages;
}
