import { readdir, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { openRegularFile } from './regular-files.js';
import { parseStatusLine } from './status-log.js';
import { acquireLock } from './store-lock.js';
import { appendLinesSync, writeFileAtomicSync } from './sync-file-writes.js';
import type { StorePaths } from './task-file-names.js';
import { removeDeadRunners } from './task-owner.js';

/** Options of {@link pruneStore}. */
export interface PruneOptions {
  /** Age after which a prune lock left by another process is taken over, in ms. */
  lockStaleMs: number;
  fsync: boolean;
}

/** Temporary files older than this were left by a crashed writer. */
const TEMPORARY_MAX_AGE_MS = 60 * 60 * 1000;

async function removeIfPresent(path: string): Promise<void> {
  await unlink(path).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'ENOENT') throw error;
  });
}

function taskIdOf(text: string): string | undefined {
  try {
    const value = JSON.parse(text) as { taskId?: unknown };
    return typeof value.taskId === 'string' ? value.taskId : undefined;
  } catch {
    return undefined;
  }
}

async function removeStaleTemporaries(dir: string): Promise<void> {
  const names = await readdir(dir).catch(() => [] as string[]);
  const now = Date.now();
  for (const name of names) {
    if (!name.endsWith('.tmp')) continue;
    const path = join(dir, name);
    const info = await stat(path).catch(() => undefined);
    if (info && now - info.mtimeMs > TEMPORARY_MAX_AGE_MS) await removeIfPresent(path);
  }
}

/**
 * Removes the tasks `removed` (finished ones, chosen by the store): their lines in `tasks.jsonl`
 * (rewritten atomically under a lock file, dropping torn and unreadable lines) and their result,
 * snapshot and journal files. Lines that other writers append while the log is rewritten are
 * carried over. With nothing to remove the log is left alone; temporary files of crashed writers
 * and the runner files of dead processes are tidied either way.
 */
export async function pruneStore(
  paths: StorePaths,
  removed: ReadonlySet<string>,
  options: PruneOptions,
): Promise<void> {
  const { release } = acquireLock(paths.lock, {
    staleMs: options.lockStaleMs,
    activity: 'being pruned',
    store: paths.dir,
    code: 'PERSISTENCE_FAILED',
    advice: 'Try again later, or delete the lock file if that process is gone.',
  });
  try {
    if (removed.size === 0) return;
    const handle = await openRegularFile(paths.tasks);
    if (!handle) return;
    try {
      const bytes = await handle.readFile();
      // Only whole lines: a partial last line is still being written, and is carried over below.
      const consumed = bytes.lastIndexOf(0x0a) + 1;
      const texts = bytes.subarray(0, consumed).toString('utf8').split('\n').slice(0, -1);
      const kept: string[] = [];
      const seen = new Set<string>();
      for (const text of texts) {
        if (seen.has(text)) continue;
        seen.add(text);
        const parsed = parseStatusLine(text);
        // Lines of an unknown schema version are kept as they are: a newer troupe may need them.
        const taskId = parsed.ok
          ? parsed.value.taskId
          : parsed.code === 'PERSISTENCE_VERSION'
            ? taskIdOf(text)
            : undefined;
        if (taskId !== undefined && !removed.has(taskId)) kept.push(text);
      }
      writeFileAtomicSync(paths.tasks, kept.length > 0 ? `${kept.join('\n')}\n` : '', options.fsync);
      // Lines appended to the old file since it was read: copy the whole ones to the new file.
      const size = (await handle.stat()).size;
      if (size > consumed) {
        const tail = Buffer.alloc(size - consumed);
        await handle.read(tail, 0, tail.length, consumed);
        const end = tail.lastIndexOf(0x0a) + 1;
        if (end > 0) {
          appendLinesSync(paths.tasks, tail.subarray(0, end).toString('utf8'), {
            repairTornEnd: false,
            fsync: options.fsync,
            followReplacement: false,
          });
        }
      }
    } finally {
      await handle.close();
    }
    for (const taskId of removed) {
      await removeIfPresent(paths.result(taskId));
      await removeIfPresent(paths.snapshot(taskId));
      await removeIfPresent(paths.journal(taskId));
    }
  } finally {
    await removeStaleTemporaries(paths.dir);
    removeDeadRunners(paths.dir);
    release();
  }
}
