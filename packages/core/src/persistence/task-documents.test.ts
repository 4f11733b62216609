import { describe, expect, it } from 'vitest';
import { toResult } from '../runtime/task-results.js';
import { fixtureRuntime } from '../runtime/test-fixtures.js';
import { createMemoryStore } from '../store/memory-store.js';
import { resultOf } from '../store/store-records.js';
import { textReply, toolReply } from '../testing/scripted-model.js';
import { machineInputFromSpec } from './machine-input.js';
import {
  parseJournalEntry,
  parseResultDocument,
  parseSnapshotDocument,
  parseStatusRecord,
} from './parse-documents.js';
import * as documents from './task-documents.js';
import { transcriptOf } from './transcript.js';
import { type JournalEntry, SCHEMA_VERSION } from './types.js';

/** One finished task (a tool call, then an answer) in a memory store, with its documents. */
async function finishedTask() {
  const store = createMemoryStore();
  const { runtime } = fixtureRuntime([toolReply('echo', { text: 'hi' }), textReply('all done')], { store });
  const handle = runtime.spawn({ agent: 'explore', prompt: 'Echo hi' });
  const result = await handle.result;
  await runtime.shutdown();
  const task = (await store.getTask(handle.id))!;
  const { entries } = await store.loadJournal(handle.id);
  return { store, spec: task.spec, result, entries, records: store.records };
}

describe('making documents', () => {
  it('stamps every document with this schema version, and each reads back as it was made', async () => {
    const { spec, result, entries } = await finishedTask();
    const feed = documents.feedJournal(machineInputFromSpec(spec));
    feed.feedWhileActive(entries);
    const made = {
      queued: documents.queuedRecord(spec),
      started: documents.statusRecord(spec.taskId, 'task.started', 1_100),
      final: documents.finalRecord(result, 2_000),
      result: documents.resultDocument(result),
      entry: documents.journalEntry(0, entries[0]!.event),
      snapshot: documents.snapshotDocument(spec.taskId, feed.snapshot, entries.length),
    };
    feed.stop();
    for (const document of Object.values(made)) expect(document.v).toBe(SCHEMA_VERSION);
    for (const [document, parse] of [
      [made.queued, parseStatusRecord],
      [made.started, parseStatusRecord],
      [made.final, parseStatusRecord],
      [made.result, parseResultDocument],
      [made.entry, parseJournalEntry],
      [made.snapshot, parseSnapshotDocument],
    ] as const) {
      const copy = JSON.parse(JSON.stringify(document));
      expect((parse as (value: unknown) => { ok: boolean; value?: unknown })(copy)).toEqual({
        ok: true,
        value: copy,
      });
    }
  });

  it('derives a record’s status from its event and the final record’s from the result', () => {
    expect(documents.statusRecord('t1', 'task.started', 5)).toEqual({
      v: SCHEMA_VERSION,
      taskId: 't1',
      event: 'task.started',
      status: 'running',
      at: 5,
    });
    expect(documents.statusRecord('t1', 'task.resumed', 6).status).toBe('running');
    expect(documents.statusRecord('t1', 'task.awaitingApproval', 7).status).toBe('awaitingApproval');
    const cancelled = resultOf('t1', 'cancelled');
    expect(documents.finalRecord(cancelled, 8)).toEqual({
      v: SCHEMA_VERSION,
      taskId: 't1',
      event: 'task.cancelled',
      status: 'cancelled',
      at: 8,
      result: cancelled,
    });
  });

  it('makes the records a live run writes, and they fold into the task as the store lists it', async () => {
    const { store, spec, result, records } = await finishedTask();
    expect(records[0]).toEqual(documents.queuedRecord(spec));
    const last = records[records.length - 1]!;
    expect(last).toEqual(documents.finalRecord(result, last.at));
    const folded = documents.foldStatusRecords(records).get(spec.taskId)!;
    expect(folded).toEqual({ spec, status: 'completed', updatedAt: last.at, result });
    expect((await store.listTasks()).tasks).toEqual([documents.summaryOf(folded)]);
  });
});

describe('feedJournal', () => {
  it('feeds a finished task’s journal to the result the task recorded, and nothing after its end', async () => {
    const { spec, result, entries } = await finishedTask();
    const after: JournalEntry = documents.journalEntry(entries.length, {
      type: 'cancel.requested',
      at: 9_999,
    });
    const feed = documents.feedJournal(machineInputFromSpec(spec));
    expect(feed.initial.value).toBe('pending');
    expect(feed.feedWhileActive([...entries, after])).toBe(entries.length);
    expect(feed.fed).toBe(entries.length);
    expect(feed.active).toBe(false);
    expect(feed.snapshot.status).toBe('done');
    expect(toResult(spec, feed.snapshot.output!)).toEqual(result);
    feed.stop();
  });

  it('refuses an entry of another schema version or without an event type, naming the task and entry, and feeds nothing', async () => {
    const { spec, entries } = await finishedTask();
    const feed = documents.feedJournal(machineInputFromSpec(spec));
    feed.feed(entries[0]!);
    const newer = { ...entries[1]!, v: 9 } as unknown as JournalEntry;
    expect(() => feed.feedWhileActive([newer])).toThrow(
      `Task ${spec.taskId}: journal entry ${newer.seq} has schema version 9; this troupe reads version ${SCHEMA_VERSION}.`,
    );
    const typeless = { ...entries[1]!, event: { at: 5 } } as unknown as JournalEntry;
    expect(() => feed.feed(typeless)).toThrow(
      `Task ${spec.taskId}: journal entry ${typeless.seq} holds no event with a type ({"at":5}).`,
    );
    expect(feed.fed).toBe(1);
    // The refused entries changed nothing: the genuine entry 1 is taken next.
    expect(feed.feed(entries[1]!)).not.toBe(feed.initial);
    expect(feed.fed).toBe(2);
    feed.stop();
  });

  it('starts from a persisted snapshot and goes on with the journal after it', async () => {
    const { spec, result, entries } = await finishedTask();
    const first = documents.feedJournal(machineInputFromSpec(spec));
    first.feedWhileActive(entries.slice(0, 2));
    const persisted = documents.snapshotDocument(spec.taskId, first.snapshot, 2).snapshot;
    first.stop();
    const resumed = documents.feedJournal(machineInputFromSpec(spec), { snapshot: persisted });
    expect(resumed.feedWhileActive(entries.slice(2))).toBe(entries.length - 2);
    expect(toResult(spec, resumed.snapshot.output!)).toEqual(result);
    resumed.stop();
  });

  it('keeps what the machine throws on a snapshot it cannot restore, instead of throwing it later', async () => {
    const { spec, entries } = await finishedTask();
    const feed = documents.feedJournal(machineInputFromSpec(spec), {
      snapshot: { status: 'active', value: { running: 'nowhere' }, context: {}, children: {} },
    });
    expect(feed.active).toBe(false);
    expect(feed.failure).toBeInstanceOf(Error);
    expect(feed.feedWhileActive(entries)).toBe(0);
    feed.stop();
  });
});

describe('transcriptOf', () => {
  it('reads the whole journal when the snapshot behind it cannot be restored', async () => {
    const { spec, entries } = await finishedTask();
    const whole = transcriptOf(spec, undefined, entries);
    expect(whole.at(-1)).toEqual({ role: 'assistant', content: [{ type: 'text', text: 'all done' }] });
    const unusable = {
      v: SCHEMA_VERSION,
      taskId: spec.taskId,
      journalLength: 1,
      savedAt: 0,
      snapshot: { status: 'active', value: { running: 'nowhere' }, context: { messages: [] }, children: {} },
    } as const;
    expect(transcriptOf(spec, unusable, entries)).toEqual(whole);
  });
});
