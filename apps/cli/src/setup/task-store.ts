import { join, resolve } from 'node:path';
import { createFileStore, type FileStore } from '@troupe/node';

/** The task store folder: `--store DIR` (relative to the project), else `~/.troupe/tasks`. */
export function storeDir(places: { cwd: string; home: string }, flag: string | undefined): string {
  return flag ? resolve(places.cwd, flag) : join(places.home, '.troupe', 'tasks');
}

/** Opens the file store in `dir` (created on first write). */
export function openStore(dir: string): FileStore {
  return createFileStore({ dir });
}
