import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { processAlive, processStart } from './process-liveness.js';
import { readRegularFileSync } from './regular-files.js';

/**
 * Which runtime wrote a status record: the file store stamps every record it appends with its own
 * identity, so that `restore()` elsewhere leaves alone the unfinished tasks a live runtime runs.
 * `runner` names a file (`runner-<id>.lock` in the store directory) that the store keeps while it
 * is open and removes when it closes (a runtime's `shutdown`, even with `keepTasks`) or its
 * process exits: a task whose runner file is gone, or whose process died, is free to resume.
 * `start` is the process's start time in clock ticks since boot (Linux), so a pid reused by a new
 * process does not pass for the old owner.
 */
export interface TaskOwner {
  host: string;
  pid: number;
  start?: number;
  runner: string;
}

const selfStart = processStart('self');
/** Runner files of this process still open, removed if it exits without closing their stores. */
const open = new Set<string>();
let exitHookInstalled = false;

const runnerFile = (dir: string, runner: string) => join(dir, `runner-${runner}.lock`);

/** The runner identity of one open file store: its file is written on the first status record. */
export class StoreRunner {
  readonly owner: TaskOwner;
  private path: string | undefined;

  constructor(private readonly dir: string) {
    const runner = randomBytes(8).toString('hex');
    this.owner =
      selfStart === undefined
        ? { host: hostname(), pid: process.pid, runner }
        : { host: hostname(), pid: process.pid, start: selfStart, runner };
  }

  /**
   * Writes the runner file if it is not there yet; returns the owner to stamp records with. Never
   * throws: when the file cannot be written (the directory is not writable: the store's own writes
   * fail and say so at `flush()`), it is tried again with the next record; meanwhile the records
   * name a runner without a file, which a restore elsewhere treats as gone.
   */
  claim(): TaskOwner {
    if (this.path) return this.owner;
    const path = runnerFile(this.dir, this.owner.runner);
    try {
      mkdirSync(this.dir, { recursive: true });
      writeFileSync(path, JSON.stringify({ ...this.owner, at: Date.now() }));
    } catch {
      return this.owner;
    }
    this.path = path;
    open.add(path);
    if (!exitHookInstalled) {
      exitHookInstalled = true;
      process.on('exit', () => {
        for (const file of open) rmSync(file, { force: true });
      });
    }
    return this.owner;
  }

  /** Gives up the tasks: removes the runner file. */
  release(): void {
    if (!this.path) return;
    open.delete(this.path);
    rmSync(this.path, { force: true });
    this.path = undefined;
  }

  /**
   * Whether `owner` is another runtime still running its tasks: its runner file is still there
   * and, on this host, its process is alive (not a zombie, and started when the record says). On another host
   * the process cannot be checked: the runner file decides.
   */
  runsElsewhere(owner: TaskOwner): boolean {
    if (owner.runner === this.owner.runner) return false;
    if (!existsSync(runnerFile(this.dir, owner.runner))) return false;
    return owner.host !== this.owner.host || processAlive(owner.pid, owner.start);
  }
}

/**
 * Removes the runner files of this host's processes that are gone (killed before they could
 * remove their own); `prune` calls it. Files of other hosts, and unreadable ones, are kept.
 */
export function removeDeadRunners(dir: string): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    if (!/^runner-[0-9a-f]{16}\.lock$/.test(name)) continue;
    const path = join(dir, name);
    try {
      const holder = JSON.parse(readRegularFileSync(path)) as {
        pid?: unknown;
        host?: unknown;
        start?: unknown;
      };
      if (holder.host !== hostname() || typeof holder.pid !== 'number') continue;
      const start = typeof holder.start === 'number' ? holder.start : undefined;
      if (!processAlive(holder.pid, start)) rmSync(path, { force: true });
    } catch {
      // Being written, or not ours to judge: left alone.
    }
  }
}

/** Reads a record's `owner` field, or undefined when it has none (a record of an older store). */
export function ownerOf(record: unknown): TaskOwner | undefined {
  const owner = (record as { owner?: unknown } | null)?.owner as Partial<TaskOwner> | undefined;
  if (
    !owner ||
    typeof owner.host !== 'string' ||
    typeof owner.pid !== 'number' ||
    typeof owner.runner !== 'string' ||
    !/^[0-9a-f]{16}$/.test(owner.runner)
  )
    return undefined;
  const read: TaskOwner = { host: owner.host, pid: owner.pid, runner: owner.runner };
  if (typeof owner.start === 'number') read.start = owner.start;
  return read;
}

/** How to name an owner in a message. */
export function describeOwner(owner: TaskOwner): string {
  return `process ${owner.pid} on ${owner.host}`;
}
