import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { onThisHost, type StoredProcess, storedProcessOf, THIS_HOST } from './host-identity.js';
import { processAlive, processStart } from './process-liveness.js';
import { readRegularFileSync } from './regular-files.js';
import type { SilenceWatch } from './silence-watch.js';

/**
 * Which runtime wrote a status record: the file store stamps every record it appends with its own
 * identity, so that `restore()` elsewhere leaves alone the unfinished tasks a live runtime runs.
 * `runner` names a file (`runner-<id>.lock` in the store directory) that the store keeps while it
 * is open and removes when it closes (a runtime's `shutdown`, even with `keepTasks`) or its
 * process exits: a task whose runner file is gone, or whose process died, is free to resume.
 * `start` is the process's start time in clock ticks since boot (Linux), so a pid reused by a new
 * process does not pass for the old owner. `hostId` (Linux: boot id and pid namespace) says where
 * the pid can be checked: on another host the runner file's heartbeat decides instead.
 */
export interface TaskOwner extends StoredProcess {
  runner: string;
}

const selfStart = processStart('self');
/** Runner files of this process still open, removed if it exits without closing their stores. */
const open = new Set<string>();
let exitHookInstalled = false;

const runnerFile = (dir: string, runner: string) => join(dir, `runner-${runner}.lock`);

/** How runners prove they are alive to other hosts sharing the store directory. */
export interface HeartbeatOptions {
  /** How often an open store rewrites its runner file (and a held restore lock), in ms. */
  heartbeatMs: number;
  /** A runner (or lock holder) on another host whose file has not changed for this long, as seen here, is gone. */
  deadAfterMs: number;
  /** Remembers what each watched file said and since when. */
  watch: SilenceWatch;
}

/**
 * Rewrites `path` with `value` plus a growing `beat` every `heartbeatMs` (replaced whole, by a
 * rename), while `stillOurs()` holds; an unreferenced timer. Returns the function that stops it.
 */
export function beatFile(
  path: string,
  value: object,
  heartbeatMs: number,
  stillOurs: () => boolean = () => true,
): () => void {
  let beat = 0;
  const timer = setInterval(() => {
    if (!stillOurs()) return;
    const next = `${path}.${process.pid}.beat`;
    try {
      writeFileSync(next, JSON.stringify({ ...value, beat: ++beat, beatAt: Date.now() }));
      renameSync(next, path);
    } catch {
      rmSync(next, { force: true });
      // The next beat tries again; a store directory gone or unwritable fails the store's own writes.
    }
  }, heartbeatMs);
  timer.unref();
  return () => clearInterval(timer);
}

/** The runner identity of one open file store: its file is written on the first status record. */
export class StoreRunner {
  readonly owner: TaskOwner;
  private path: string | undefined;
  private stopBeating: (() => void) | undefined;

  constructor(
    private readonly dir: string,
    private readonly heartbeat: HeartbeatOptions,
  ) {
    const runner = randomBytes(8).toString('hex');
    this.owner = { ...THIS_HOST, pid: process.pid, runner };
    if (selfStart !== undefined) this.owner.start = selfStart;
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
      const written = { ...this.owner, at: Date.now() };
      writeFileSync(path, JSON.stringify({ ...written, beat: 0 }));
      this.stopBeating = beatFile(path, written, this.heartbeat.heartbeatMs, () => this.path === path);
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
    this.stopBeating?.();
    this.stopBeating = undefined;
    open.delete(this.path);
    rmSync(this.path, { force: true });
    this.path = undefined;
  }

  /**
   * Whether `owner` is another runtime still running its tasks: its runner file is still there
   * and, on this host, its process is alive (not a zombie, and started when the record says). On
   * another host the process cannot be checked: its runner file's heartbeat decides — gone once the
   * file has not changed for `deadAfterMs` since this store first looked (so a store opened after
   * that host died takes its tasks over `deadAfterMs` later, through the runtime's owner check).
   */
  runsElsewhere(owner: TaskOwner): boolean {
    if (owner.runner === this.owner.runner) return false;
    const path = runnerFile(this.dir, owner.runner);
    if (!existsSync(path)) return false;
    if (onThisHost(owner)) return processAlive(owner.pid, owner.start);
    const silent = this.heartbeat.watch.silentFor(path);
    return silent !== undefined && silent < this.heartbeat.deadAfterMs;
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
      const holder = storedProcessOf(JSON.parse(readRegularFileSync(path)));
      if (!holder || !onThisHost(holder)) continue;
      if (!processAlive(holder.pid, holder.start)) rmSync(path, { force: true });
    } catch {
      // Being written, or not ours to judge: left alone.
    }
  }
}

/** Reads a record's `owner` field, or undefined when it has none (a record of an older store). */
export function ownerOf(record: unknown): TaskOwner | undefined {
  const owner = (record as { owner?: { runner?: unknown } | null } | null)?.owner;
  const process = storedProcessOf(owner);
  if (!process || typeof owner?.runner !== 'string' || !/^[0-9a-f]{16}$/.test(owner.runner)) return undefined;
  return { ...process, runner: owner.runner };
}

/** How to name an owner in a message. */
export function describeOwner(owner: TaskOwner): string {
  return `process ${owner.pid} on ${owner.host}`;
}
