import { createRuntime, defineTool, PersistenceError } from '@troupe/core';
import type { StoreSuiteFramework } from '@troupe/core/store';
import { SCHEMA_VERSION, storeRecords } from '@troupe/core/store';
import { scriptedModel, textReply, toolReply } from '@troupe/core/testing';
import * as v from 'valibot';
import type { ExpectStatic } from 'vitest';
import { createIndexedDbStore } from '../src/index.js';
import { closeStores, freshStore, reopenStore } from './indexeddb-harness.js';

/** vitest's functions, as the Node and Chromium runs pass them (these cases use more of `expect`). */
type VitestFramework = Omit<StoreSuiteFramework, 'expect'> & { expect: ExpectStatic };

const { queuedRecord, startedRecord, journalEntryOf, snapshotDocumentOf, resultOf } = storeRecords;

/** Makes every IndexedDB put throw `QuotaExceededError` until the returned function is called. */
function fillTheDisk(): () => void {
  const put = IDBObjectStore.prototype.put;
  IDBObjectStore.prototype.put = () => {
    throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
  };
  return () => {
    IDBObjectStore.prototype.put = put;
  };
}

/**
 * The IndexedDB store's own behaviour beyond the conformance suite, registered by the Node run
 * (fake-indexeddb) and the Chromium run (the real IndexedDB).
 */
export function indexedDbStoreCases(test: VitestFramework): void {
  const { describe, it, expect, afterEach } = test;
  afterEach(closeStores);

  describe('IndexedDB store', () => {
    it('produces only the latest of many snapshots saved between writes', async () => {
      const store = await freshStore();
      store.appendStatus(queuedRecord('t1'));
      let produced = 0;
      for (let turn = 1; turn <= 50; turn++) {
        store.saveSnapshot('t1', () => {
          produced++;
          return snapshotDocumentOf('t1', turn, `turn ${turn}`);
        });
      }
      await store.flush();
      expect(produced).toBe(1);
      expect(await (await reopenStore(store)).loadSnapshot('t1')).toEqual(
        snapshotDocumentOf('t1', 50, 'turn 50'),
      );
    });

    it('keeps writes that hit a full disk, reports them naming the task, and writes them once there is room', async () => {
      const errors: PersistenceError[] = [];
      const store = await freshStore({ onError: (error) => errors.push(error) });
      store.appendStatus(queuedRecord('kept'));
      await store.flush();
      const roomAgain = fillTheDisk();
      try {
        store.appendStatus(startedRecord('kept'));
        store.appendJournal('kept', journalEntryOf(0));
        store.saveResult({ v: SCHEMA_VERSION, result: resultOf('kept') });
        const failure = await store.flush().catch((error: unknown) => error);
        expect(failure).toBeInstanceOf(PersistenceError);
        expect((failure as PersistenceError).message).toMatch(/QuotaExceededError.*task kept.*tried again/s);
        expect(errors).toEqual([failure]);
      } finally {
        roomAgain();
      }
      await store.flush();
      const reopened = await reopenStore(store);
      expect(await reopened.getTask('kept')).toMatchObject({ status: 'running' });
      expect((await reopened.loadJournal('kept')).entries).toEqual([journalEntryOf(0)]);
      expect(await reopened.loadResult('kept')).toEqual(resultOf('kept'));
    });

    it('refuses writes before claim() and after close(), naming the store and task', async () => {
      const store = createIndexedDbStore({ name: `unclaimed-${Date.now()}` });
      expect(() => store.appendStatus(queuedRecord('t1'))).toThrow(/not claimed by this page.*task t1/);
      expect(await store.listTasks()).toEqual({ tasks: [] });
      await store.claim();
      store.appendStatus(queuedRecord('t1'));
      await store.close();
      expect(() => store.appendStatus(startedRecord('t1'))).toThrow(/is closed/);
      expect(() => createIndexedDbStore({ name: '' })).toThrow(/non-empty string/);
      expect(() => createIndexedDbStore({ snapshotDelayMs: -1 })).toThrow(RangeError);
    });

    it('restores an unfinished task in a new runtime (a reload) without running its write tool twice', async () => {
      const writes: string[] = [];
      const save = defineTool({
        name: 'save',
        description: 'Save a note',
        access: 'write',
        input: v.object({ note: v.string() }),
        execute: async ({ note }) => {
          writes.push(note);
          // The page goes away while the write is in flight: it never answers.
          return new Promise<string>(() => {});
        },
      });
      const agents = [{ name: 'writer', description: 'Writes', systemPrompt: 'You write.', tools: ['save'] }];
      const firstStore = await freshStore();
      const first = createRuntime({
        model: scriptedModel([toolReply('save', { note: 'n1' }), textReply('never')]),
        agents,
        tools: [save],
        approval: 'auto',
        store: firstStore,
      });
      const handle = first.spawn({ agent: 'writer', prompt: 'save n1' });
      await expect.poll(() => writes.length).toBe(1);
      await first.shutdown({ keepTasks: true });

      const second = createRuntime({
        model: scriptedModel([textReply('the save was interrupted; not retried')]),
        agents,
        tools: [save],
        approval: 'auto',
        store: await reopenStore(firstStore),
      });
      const { restored, warnings } = await second.restore();
      expect(warnings).toEqual([]);
      expect(restored).toEqual([handle.id]);
      const result = await second.result(handle.id);
      expect(result?.status).toBe('completed');
      expect(writes).toEqual(['n1']);
      await second.shutdown();
    });
  });
}
