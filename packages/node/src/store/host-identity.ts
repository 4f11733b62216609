import { readFileSync, readlinkSync } from 'node:fs';
import { hostname } from 'node:os';

// Which machine a store file's writer ran on. A pid means something only inside the pid namespace
// it came from: two containers, or two machines, can share a hostname, and judging the other's pid
// by this kernel's /proc would take a live writer for dead. So "the same host" is decided by the
// kernel's boot id plus the pid namespace where both are known (Linux), by the hostname elsewhere.

/** A writer's host: its name (for messages) and, where the system tells, what makes its pids comparable. */
export interface HostIdentity {
  /** `os.hostname()`. */
  host: string;
  /** Linux: `<boot id>/<pid namespace>`; absent where /proc cannot tell. */
  hostId?: string;
}

function readHostId(): string | undefined {
  try {
    const boot = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    const namespace = readlinkSync('/proc/self/ns/pid');
    return boot && namespace ? `${boot}/${namespace}` : undefined;
  } catch {
    return undefined;
  }
}

const hostId = readHostId();

/** This process's host. */
export const THIS_HOST: HostIdentity =
  hostId === undefined ? { host: hostname() } : { host: hostname(), hostId };

/**
 * Whether `writer` ran on this host, so that its pid can be checked here. Both host ids known: they
 * decide. Otherwise (a file of an older troupe, or no /proc) the hostnames decide.
 */
export function onThisHost(writer: { host: string; hostId?: string | undefined }): boolean {
  if (writer.hostId !== undefined && THIS_HOST.hostId !== undefined)
    return writer.hostId === THIS_HOST.hostId;
  return writer.host === THIS_HOST.host;
}

/**
 * A process as a store file names it (a lock's holder, a record's owner): its pid, its host and,
 * where known, when it started (so that a new process that reused the pid does not pass for it).
 */
export interface StoredProcess extends HostIdentity {
  pid: number;
  /** Linux: clock ticks since boot when the process started. */
  start?: number;
}

/**
 * The process a parsed store file names: its `pid` and `host`, with `hostId` and `start` when they
 * are well formed. Undefined when `pid` or `host` is missing or not of its type (the file is
 * someone else's input: nothing else of it is taken).
 */
export function storedProcessOf(value: unknown): StoredProcess | undefined {
  const fields = value as { pid?: unknown; host?: unknown; hostId?: unknown; start?: unknown } | null;
  if (!fields || typeof fields.pid !== 'number' || typeof fields.host !== 'string') return undefined;
  const read: StoredProcess = { pid: fields.pid, host: fields.host };
  if (typeof fields.hostId === 'string' && fields.hostId.length <= 200) read.hostId = fields.hostId;
  if (typeof fields.start === 'number') read.start = fields.start;
  return read;
}
