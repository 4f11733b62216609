import { appendFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TaskStore } from '@troupe/core';
import { runTaskStoreSuite } from '@troupe/core/store';
import { afterEach, describe, expect, it } from 'vitest';
import { createFileStore, type FileStore } from './file-store.js';

const dirs: string[] = [];
const dirOf = (store: TaskStore) => (store as FileStore).dir;

runTaskStoreSuite(
  'file store',
  { describe, it, expect, afterEach },
  {
    async create() {
      const dir = await mkdtemp(join(tmpdir(), 'troupe-conformance-'));
      dirs.push(dir);
      return createFileStore({ dir });
    },
    async reopen(store) {
      await store.flush();
      return createFileStore({ dir: dirOf(store) });
    },
    async cleanup() {
      await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
    },
    raw: {
      async putStatusRecord(store, value) {
        await mkdir(dirOf(store), { recursive: true });
        await appendFile(join(dirOf(store), 'tasks.jsonl'), `${JSON.stringify(value)}\n`);
      },
      async putJournalEntry(store, taskId, value) {
        await mkdir(dirOf(store), { recursive: true });
        await appendFile(join(dirOf(store), `${taskId}.journal.jsonl`), `${JSON.stringify(value)}\n`);
      },
      async putSnapshot(store, taskId, value) {
        await mkdir(dirOf(store), { recursive: true });
        await writeFile(join(dirOf(store), `${taskId}.snapshot.json`), JSON.stringify(value));
      },
      async truncateJournal(store, taskId) {
        // A crash mid-append: the last line is cut in the middle, with no newline.
        const path = join(dirOf(store), `${taskId}.journal.jsonl`);
        const text = await readFile(path, 'utf8');
        const lastStart = text.lastIndexOf('\n', text.length - 2) + 1;
        await writeFile(path, text.slice(0, lastStart + Math.floor((text.length - lastStart) / 2)));
      },
    },
  },
);
