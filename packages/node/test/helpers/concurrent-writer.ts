// A second process writing to a file store, for the concurrency tests.
// Usage: node --conditions=source --import tsx concurrent-writer.ts <dir> <prefix> <tasks> <padding> [flushDelayMs]
// Prints "ready" once the store is open, starts writing when a line arrives on stdin, prints "done".
import { once } from 'node:events';
import { createFileStore } from '../../src/store/file-store.js';
import { journalEntry, queued, started } from './store-records.js';

const [dir, prefix, tasks, padding, flushDelayMs] = process.argv.slice(2);
if (!dir || !prefix) throw new Error('usage: concurrent-writer.ts <dir> <prefix> <tasks> <padding>');
const store = createFileStore({ dir, flushDelayMs: Number(flushDelayMs ?? 0) });
process.stdout.write('ready\n');
await once(process.stdin, 'data');
for (let index = 0; index < Number(tasks); index++) {
  const taskId = `${prefix}-${index}`;
  store.appendStatus(queued(taskId, 1_000 + index, 'x'.repeat(Number(padding))));
  store.appendJournal(taskId, journalEntry(0));
  store.appendStatus(started(taskId, 2_000 + index));
  if (index % 2 === 0) await store.flush();
}
await store.flush();
process.stdout.write('done\n');
process.stdin.destroy();
