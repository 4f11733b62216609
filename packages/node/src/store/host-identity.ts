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

/** Reads an optional `hostId` field of a parsed store file. */
export function hostIdOf(value: { hostId?: unknown }): string | undefined {
  return typeof value.hostId === 'string' && value.hostId.length <= 200 ? value.hostId : undefined;
}
