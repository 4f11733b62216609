import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readdir, readFile, utimes, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeTaskFiles } from '../../test/helpers/store-records.js';
import { useTempDir } from '../../test/helpers/temp-dir.js';
import { createFileStore } from './file-store.js';

const temp = useTempDir('troupe-prune-');

const day = 24 * 60 * 60 * 1000;

describe('prune', () => {
  it('removes the runner files of processes on this host that are gone, and keeps the live ones', async () => {
    const store = createFileStore({ dir: temp.path });
    writeTaskFiles(store, 'running');
    await store.flush();
    const own = (await readdir(temp.path)).filter((name) => name.startsWith('runner-'));
    expect(own).toHaveLength(1);
    // A process that has exited: its pid, read from inside it.
    const deadPid = Number(
      execFileSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']),
    );
    const dead = 'runner-0123456789abcdef.lock';
    const otherHost = 'runner-fedcba9876543210.lock';
    await writeFile(
      join(temp.path, dead),
      JSON.stringify({ pid: deadPid, host: hostname(), runner: '0123456789abcdef', at: 1 }),
    );
    await writeFile(
      join(temp.path, otherHost),
      JSON.stringify({ pid: deadPid, host: 'elsewhere', runner: 'fedcba9876543210', at: 1 }),
    );

    expect(await store.prune({ olderThan: 1 })).toBe(0);
    expect((await readdir(temp.path)).filter((name) => name.startsWith('runner-')).sort()).toEqual(
      [...own, otherHost].sort(),
    );
    await store.close();
    expect((await readdir(temp.path)).filter((name) => name.startsWith('runner-'))).toEqual([otherHost]);
  });

  it('removes finished tasks that ended before the cut-off, their files and their log lines', async () => {
    const store = createFileStore({ dir: temp.path });
    writeTaskFiles(store, 'old', 10 * day);
    writeTaskFiles(store, 'recent', 20 * day);
    writeTaskFiles(store, 'running');
    await store.flush();
    expect(await store.prune({ olderThan: 15 * day })).toBe(1);

    const names = await readdir(temp.path);
    expect(names.filter((name) => name.startsWith('old'))).toEqual([]);
    expect(names.filter((name) => name.startsWith('recent')).sort()).toEqual([
      'recent.journal.jsonl',
      'recent.json',
      'recent.snapshot.json',
    ]);
    const log = await readFile(join(temp.path, 'tasks.jsonl'), 'utf8');
    expect(log).not.toContain('"old"');
    expect(log.split('\n').filter(Boolean)).toHaveLength(5);
    const { tasks, warnings } = await createFileStore({ dir: temp.path }).loadTasks();
    expect(warnings).toEqual([]);
    expect(tasks.map((task) => [task.spec.taskId, task.status])).toEqual([
      ['recent', 'completed'],
      ['running', 'running'],
    ]);
    expect(existsSync(join(temp.path, 'tasks.jsonl.lock'))).toBe(false);
  });

  it('drops torn and unreadable lines, keeps lines of unknown versions, and leaves the log alone when nothing is due', async () => {
    const store = createFileStore({ dir: temp.path });
    writeTaskFiles(store, 'old', 1_000);
    writeTaskFiles(store, 'kept');
    await store.flush();
    const future = JSON.stringify({ v: 99, taskId: 'kept', event: 'task.future' });
    await writeFile(
      join(temp.path, 'tasks.jsonl'),
      `not json\n${future}\n${await readFile(join(temp.path, 'tasks.jsonl'), 'utf8')}`,
    );
    expect(await store.prune({ olderThan: 500 })).toBe(0);
    expect(await readFile(join(temp.path, 'tasks.jsonl'), 'utf8')).toMatch(/^not json\n/);
    expect(await store.prune({ olderThan: 5_000 })).toBe(1);
    const log = await readFile(join(temp.path, 'tasks.jsonl'), 'utf8');
    expect(log.startsWith(`${future}\n`)).toBe(true);
    expect(log).not.toContain('not json');
  });

  it('applies the retention period with pruneExpired() and with prune() without a time', async () => {
    let now = 100 * day;
    const store = createFileStore({ dir: temp.path, retentionMs: 7 * day, now: () => now });
    writeTaskFiles(store, 'a', 92 * day);
    writeTaskFiles(store, 'b', 94 * day);
    await store.flush();
    expect(await store.pruneExpired()).toBe(1);
    now = 102 * day;
    expect(await store.prune()).toBe(1);
    expect((await store.loadTasks()).tasks).toEqual([]);
  });

  it('defaults the retention period to 7 days', async () => {
    const now = 100 * day;
    const store = createFileStore({ dir: temp.path, now: () => now });
    writeTaskFiles(store, 'eight-days', now - 8 * day);
    writeTaskFiles(store, 'six-days', now - 6 * day);
    await store.flush();
    expect(await store.pruneExpired()).toBe(1);
  });

  it('refuses to prune while another live process holds the lock, and takes over a dead one', async () => {
    const store = createFileStore({ dir: temp.path });
    writeTaskFiles(store, 'old', 1_000);
    await store.flush();
    const lock = join(temp.path, 'tasks.jsonl.lock');
    await writeFile(lock, JSON.stringify({ pid: process.ppid, host: hostname(), at: Date.now() }));
    await expect(store.prune({ olderThan: 5_000 })).rejects.toThrow(
      `The task store "${temp.path}" is being pruned by process ${process.ppid} on ${hostname()} since `,
    );
    await writeFile(lock, JSON.stringify({ pid: 2 ** 22 + 7, host: hostname(), at: Date.now() }));
    expect(await store.prune({ olderThan: 5_000 })).toBe(1);
    expect(existsSync(lock)).toBe(false);
  });

  it('removes temporary files left by crashed writers', async () => {
    const store = createFileStore({ dir: temp.path });
    writeTaskFiles(store, 'a');
    await store.flush();
    const leftover = join(temp.path, 'a.snapshot.json.4242.1.tmp');
    const fresh = join(temp.path, 'a.snapshot.json.4242.2.tmp');
    await writeFile(leftover, '{');
    await writeFile(fresh, '{');
    const longAgo = (Date.now() - 2 * 60 * 60 * 1000) / 1000;
    await utimes(leftover, longAgo, longAgo);
    await store.prune({ olderThan: 0 });
    expect(existsSync(leftover)).toBe(false);
    expect(existsSync(fresh)).toBe(true);
  });
});
