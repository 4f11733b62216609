import type { Message } from '../model/types.js';
import { machineInputFromSpec } from './machine-input.js';
import { feedJournal, type JournalFeed } from './task-documents.js';
import type { JournalEntry, TaskSnapshotDocument, TaskSpec } from './types.js';

/** The messages in a persisted subagent snapshot, or undefined when it holds none. */
export function messagesOfSnapshot(snapshot: unknown): Message[] | undefined {
  const messages = (snapshot as { context?: { messages?: unknown } } | undefined)?.context?.messages;
  return Array.isArray(messages) ? (messages as Message[]) : undefined;
}

/**
 * A stored task's conversation, exactly as its machine holds it: the snapshot's messages when the
 * snapshot reflects the whole journal; otherwise the journal (after the snapshot, or all of it)
 * fed through the machine. Never calls a model or runs a tool.
 */
export function transcriptOf(
  spec: TaskSpec,
  snapshot: TaskSnapshotDocument | undefined,
  journal: readonly JournalEntry[],
): Message[] {
  const fromSnapshot = messagesOfSnapshot(snapshot?.snapshot);
  if (snapshot && fromSnapshot && snapshot.journalLength >= journal.length) return fromSnapshot;
  const input = machineInputFromSpec(spec);
  let feed: JournalFeed | undefined;
  let from = 0;
  if (snapshot && fromSnapshot && snapshot.journalLength <= journal.length) {
    feed = feedJournal(input, { snapshot: snapshot.snapshot });
    from = snapshot.journalLength;
    // A snapshot the machine cannot take: the whole journal tells the same story.
    if (feed.failure !== undefined) {
      feed.stop();
      feed = undefined;
      from = 0;
    }
  }
  feed ??= feedJournal(input);
  feed.feedWhileActive(journal.slice(from));
  const messages = feed.snapshot.context.messages;
  feed.stop();
  return messages;
}
