import { afterEach, describe, expect, it } from 'vitest';
import { PersistenceError } from '../errors.js';
import type {
  JournalEntry,
  TaskResultDocument,
  TaskSnapshotDocument,
  TaskStatusRecord,
} from '../persistence/types.js';
import { createTaskStore, type PortStore } from './port-store.js';
import type {
  PortBatch,
  PortNotice,
  StatusRead,
  StorageReads,
  TaskHistoryIndex,
  WritesInBatches,
  WritesOneByOne,
} from './storage-port.js';
import {
  finishedRecord,
  journalEntryOf,
  queuedRecord,
  resultOf,
  snapshotDocumentOf,
  startedRecord,
} from './store-records.js';
import { runTaskStoreSuite } from './task-store-suite.js';

const later = () => new Promise<void>((resolve) => setTimeout(resolve, 1));

/** A port whose every call answers asynchronously, as IndexedDB or SQL would; it logs its writes. */
class AsyncPort implements StorageReads<number>, WritesOneByOne {
  readonly location = 'async test storage';
  records: TaskStatusRecord[] = [];
  journals = new Map<string, JournalEntry[]>();
  snapshots = new Map<string, TaskSnapshotDocument>();
  results = new Map<string, TaskResultDocument>();
  writes: string[] = [];
  failNext = 0;

  private async write(what: string, apply: () => void) {
    await later();
    if (this.failNext > 0) {
      this.failNext--;
      throw new Error(`${what} failed`);
    }
    this.writes.push(what);
    apply();
    return undefined;
  }
  appendStatus(records: readonly TaskStatusRecord[]) {
    return this.write('status', () => this.records.push(...records));
  }
  appendJournal(taskId: string, entries: readonly JournalEntry[]) {
    return this.write('journal', () =>
      this.journals.set(taskId, [...(this.journals.get(taskId) ?? []), ...entries]),
    );
  }
  async putSnapshot(taskId: string, produce: () => TaskSnapshotDocument) {
    let document: TaskSnapshotDocument;
    try {
      document = produce();
    } catch (error) {
      return [
        new PersistenceError('PERSISTENCE_FAILED', `snapshot of ${taskId}: ${(error as Error).message}`),
      ];
    }
    return this.write('snapshot', () => this.snapshots.set(taskId, document));
  }
  putResult(taskId: string, document: TaskResultDocument) {
    return this.write('result', () => this.results.set(taskId, document));
  }
  notices: PortNotice[] = [];
  /** Writes a whole flush at once, as a port in batches does. */
  writeAll(batch: PortBatch) {
    return this.write('batch', () => {
      for (const [taskId, entries] of batch.journals)
        this.journals.set(taskId, [...(this.journals.get(taskId) ?? []), ...entries]);
      for (const [taskId, produce] of batch.snapshots) this.snapshots.set(taskId, produce());
      for (const [taskId, document] of batch.results) this.results.set(taskId, document);
      this.records.push(...batch.statuses);
      this.notices.push(...batch.notices);
    });
  }
  /** The same storage as a port that writes each flush in one transaction. */
  batched(): StorageReads<number> & WritesInBatches {
    return {
      location: this.location,
      readStatus: (position) => this.readStatus(position),
      readJournal: (taskId) => this.readJournal(taskId),
      readSnapshot: (taskId) => this.readSnapshot(taskId),
      readResult: (taskId) => this.readResult(taskId),
      remove: (taskIds) => this.remove(taskIds),
      writeBatch: (batch) => this.writeAll(batch),
    };
  }
  async readStatus(position = 0): Promise<StatusRead<number>> {
    await later();
    const restarted = position > this.records.length;
    return {
      records: this.records.slice(restarted ? 0 : position),
      warnings: [],
      position: this.records.length,
      restarted,
    };
  }
  async readJournal(taskId: string) {
    await later();
    return { entries: (this.journals.get(taskId) ?? []).map((value) => ({ value })), warnings: [] };
  }
  async readSnapshot(taskId: string) {
    await later();
    return this.snapshots.get(taskId);
  }
  async readResult(taskId: string) {
    await later();
    return this.results.get(taskId);
  }
  async remove(taskIds: ReadonlySet<string>) {
    await later();
    this.records = this.records.filter((record) => !taskIds.has(record.taskId));
    for (const taskId of taskIds) {
      this.journals.delete(taskId);
      this.snapshots.delete(taskId);
      this.results.delete(taskId);
    }
  }
}

const ports = new Map<PortStore, AsyncPort>();
runTaskStoreSuite(
  'a store over an asynchronous port',
  { describe, it, expect, afterEach },
  {
    async create() {
      const port = new AsyncPort();
      const store = createTaskStore(port);
      ports.set(store, port);
      return store;
    },
    async reopen(store) {
      const port = ports.get(store as PortStore) as AsyncPort;
      const reopened = createTaskStore(port);
      ports.set(reopened, port);
      return reopened;
    },
    async cleanup() {
      ports.clear();
    },
  },
);

describe('createTaskStore over an asynchronous port', () => {
  it('hands a flush to the port in order: journals, then snapshots and results, then status records', async () => {
    const port = new AsyncPort();
    const store = createTaskStore(port, { snapshotDelayMs: 0 });
    store.appendStatus(queuedRecord('t1'));
    store.saveSnapshot('t1', () => snapshotDocumentOf('t1', 1));
    store.appendJournal('t1', journalEntryOf(0));
    store.saveResult({ v: 2, result: resultOf('t1') });
    await store.flush();
    expect(port.writes).toEqual(['journal', 'snapshot', 'result', 'status']);
  });

  it('keeps a failed write, rejects flush() naming the storage, and writes it at the next flush in order', async () => {
    const port = new AsyncPort();
    const store = createTaskStore(port);
    store.appendStatus(queuedRecord('t1'));
    port.failNext = 1;
    await expect(store.flush()).rejects.toMatchObject({
      code: 'PERSISTENCE_FAILED',
      message: expect.stringContaining('async test storage'),
    });
    store.appendStatus(startedRecord('t1'));
    await store.flush();
    expect(port.records.map((record) => record.event)).toEqual(['task.queued', 'task.started']);
  });

  it('reports a refused write at flush() once and writes the rest; reads see buffered writes', async () => {
    const port = new AsyncPort();
    const store = createTaskStore(port, { flushDelayMs: 60_000 });
    store.appendStatus(queuedRecord('t1'));
    store.appendJournal('t1', journalEntryOf(0));
    expect((await store.loadJournal('t1')).entries).toEqual([journalEntryOf(0)]);
    store.saveSnapshot('t1', () => {
      throw new Error('cyclic context');
    });
    await expect(store.flush()).rejects.toThrow('snapshot of t1: cyclic context');
    await store.flush();
    expect((await store.getTask('t1'))?.status).toBe('queued');
  });
});

describe("createTaskStore's extension points", () => {
  it('calls onClose once after the last flush, however many closes are asked, concurrently or not', async () => {
    const port = new AsyncPort();
    const events: string[] = [];
    const store = createTaskStore(port, {
      onClose: async () => {
        await later();
        events.push(`closed after ${port.records.length} records`);
      },
    });
    store.appendStatus(queuedRecord('t1'));
    await Promise.all([store.close(), store.close()]);
    await store.close();
    expect(events).toEqual(['closed after 1 records']);
    expect(() => store.appendStatus(startedRecord('t1'))).toThrow(/is closed/);
  });

  it('refuses a write with the error its write filter throws (a store this page has not claimed)', async () => {
    const port = new AsyncPort();
    let writer = false;
    const store = createTaskStore(port, {
      writeFilter: (taskId) => {
        if (!writer) throw new PersistenceError('PERSISTENCE_FAILED', `not the writer of ${taskId}`);
        return true;
      },
    });
    expect(() => store.appendStatus(queuedRecord('t1'))).toThrow('not the writer of t1');
    expect(() => store.saveResult({ v: 2, result: resultOf('t1') })).toThrow('not the writer of t1');
    writer = true;
    store.appendStatus(queuedRecord('t1'));
    await store.flush();
    expect(port.records.map((record) => record.taskId)).toEqual(['t1']);
  });

  it('publishes notices with the batch of the writes accepted before them, kept with a failed one', async () => {
    const port = new AsyncPort();
    const store = createTaskStore(port.batched());
    store.appendStatus(queuedRecord('t1'));
    store.notify({ channel: 'events', taskId: 't1', payload: 'queued' });
    port.failNext = 1;
    await expect(store.flush()).rejects.toMatchObject({ code: 'PERSISTENCE_FAILED' });
    expect(port.notices).toEqual([]);
    store.notify({ channel: 'events', payload: 'any' });
    await store.flush();
    expect(port.writes).toEqual(['batch']);
    expect(port.records.map((record) => record.taskId)).toEqual(['t1']);
    expect(port.notices.map((notice) => notice.payload)).toEqual(['queued', 'any']);
    // A port that writes one by one has no transaction to send them in: they are dropped.
    const oneByOne = new AsyncPort();
    const plain = createTaskStore(oneByOne);
    plain.notify({ channel: 'events', payload: 'dropped' });
    await plain.flush();
    expect(oneByOne.notices).toEqual([]);
  });

  it('drops the writes and notices of a task its write filter refuses, as they are made', async () => {
    const port = new AsyncPort();
    const givenUp = new Set(['t2']);
    const store = createTaskStore(port.batched(), { writeFilter: (taskId) => !givenUp.has(taskId) });
    for (const taskId of ['t1', 't2']) {
      store.appendStatus(queuedRecord(taskId));
      store.appendJournal(taskId, journalEntryOf(0));
      store.saveSnapshot(taskId, () => snapshotDocumentOf(taskId, 1));
      store.saveResult({ v: 2, result: resultOf(taskId) });
      store.notify({ channel: 'events', taskId, payload: taskId });
    }
    await store.flush();
    expect(port.records.map((record) => record.taskId)).toEqual(['t1']);
    expect([...port.journals.keys(), ...port.snapshots.keys(), ...port.results.keys()]).toEqual([
      't1',
      't1',
      't1',
    ]);
    expect(port.notices.map((notice) => notice.payload)).toEqual(['t1']);
    givenUp.delete('t2');
    store.appendStatus(queuedRecord('t2'));
    await store.flush();
    expect(port.records.map((record) => record.taskId)).toEqual(['t1', 't2']);
  });

  it("answers loadTasks and prune's choice from the port's history index when it has them", async () => {
    const port = new AsyncPort();
    const asked: string[] = [];
    const stored = { spec: queuedRecord('t9').spec!, status: 'completed' as const, updatedAt: 5 };
    const history: TaskHistoryIndex = {
      list: async () => ({ tasks: [] }),
      get: async () => undefined,
      all: async () => {
        asked.push('all');
        return { tasks: [stored], warnings: [] };
      },
      endedBefore: async (olderThan) => {
        asked.push(`endedBefore ${olderThan}`);
        return ['t1'];
      },
    };
    const store = createTaskStore(Object.assign(port, { history }));
    store.appendStatus(queuedRecord('t1'));
    store.appendStatus(finishedRecord('t1', 2_000));
    store.appendStatus(queuedRecord('t2'));
    expect(await store.loadTasks()).toEqual({ tasks: [stored], warnings: [] });
    expect(await store.prune({ olderThan: 3_000 })).toBe(1);
    expect(asked).toEqual(['all', 'endedBefore 3000']);
    expect(port.records.map((record) => record.taskId)).toEqual(['t2']);
  });
});
