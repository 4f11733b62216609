// Writes to a file store and exits at once, without flushing: the store's exit hook must write.
// Usage: node --conditions=source --import tsx exit-writer.ts <dir>
import { createFileStore } from '../../src/store/file-store.js';
import { journalEntry, queued, snapshotOf } from './store-records.js';

const [dir] = process.argv.slice(2);
if (!dir) throw new Error('usage: exit-writer.ts <dir>');
const store = createFileStore({ dir, flushDelayMs: 60_000, snapshotDelayMs: 60_000 });
store.appendStatus(queued('t1'));
store.appendJournal('t1', journalEntry(0));
store.saveSnapshot('t1', () => snapshotOf('t1', 1));
process.exit(0);
