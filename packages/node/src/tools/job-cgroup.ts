import { existsSync, mkdirSync, readFileSync, rmdirSync, watch, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A cgroup (v2) made for one `bash` call: every process of the call is in it from the start and
 * stays there whatever it does (`setsid`, a double fork, a cleared environment), unless it may
 * write to cgroup files itself. `kill()` ends them all at once (`cgroup.kill`).
 */
export interface JobCgroup {
  /** The cgroup's directory; a process joins it by writing its pid to `cgroup.procs` there. */
  readonly path: string;
  /** SIGKILLs every process in the cgroup (and in cgroups below it). Never throws. */
  kill(): void;
  /** Removes the cgroup once its last process has exited (watching `cgroup.events`). Never throws. */
  removeWhenEmpty(): void;
}

let base: string | false | undefined;

/** The cgroup v2 directory this process is in, from /proc/self/mountinfo and /proc/self/cgroup. */
function ownCgroupDirectory(): string | false {
  try {
    const mount = readFileSync('/proc/self/mountinfo', 'utf8')
      .split('\n')
      .map((line) => line.split(' '))
      .find((fields) => fields[fields.indexOf('-') + 1] === 'cgroup2');
    const own = readFileSync('/proc/self/cgroup', 'utf8')
      .split('\n')
      .find((line) => line.startsWith('0::'));
    if (!mount || own === undefined || mount[3] !== '/') return false;
    const directory = join(mount[4]!, own.slice(3));
    return existsSync(join(directory, 'cgroup.kill')) || existsSync(join(directory, 'cgroup.procs'))
      ? directory
      : false;
  } catch {
    return false;
  }
}

/**
 * Whether this process may make a cgroup for each `bash` call: a cgroup v2 hierarchy is mounted,
 * the cgroup this process is in can have a child made below it (root, or a delegated systemd
 * unit), and the kernel has `cgroup.kill` (Linux 5.14). Looked up once.
 */
export function jobCgroupsAvailable(): boolean {
  if (base === undefined) {
    base = ownCgroupDirectory();
    if (base !== false) {
      const probe = join(base, `troupe-probe-${process.pid}`);
      try {
        mkdirSync(probe);
        const usable = existsSync(join(probe, 'cgroup.kill'));
        rmdirSync(probe);
        if (!usable) base = false;
      } catch {
        base = false;
      }
    }
  }
  return base !== false;
}

/** Makes the cgroup of one call, named after its tag; `undefined` where cgroups cannot be used. */
export function createJobCgroup(tag: string): JobCgroup | undefined {
  if (!jobCgroupsAvailable() || base === false || base === undefined) return undefined;
  const path = join(base, `troupe-bash-${tag}`);
  try {
    mkdirSync(path);
  } catch {
    return undefined;
  }
  const kill = () => {
    try {
      writeFileSync(join(path, 'cgroup.kill'), '1');
    } catch {
      // Already removed.
    }
  };
  const tryRemove = (): boolean => {
    try {
      rmdirSync(path);
      return true;
    } catch (error) {
      return (error as NodeJS.ErrnoException).code === 'ENOENT';
    }
  };
  return {
    path,
    kill,
    removeWhenEmpty() {
      if (tryRemove()) return;
      // Still populated (processes dying after the kill): cgroup.events changes when it empties.
      try {
        const watcher = watch(join(path, 'cgroup.events'), () => {
          if (tryRemove()) watcher.close();
        });
        watcher.on('error', () => watcher.close());
        watcher.unref();
        if (tryRemove()) watcher.close();
      } catch {
        // The cgroup is left behind empty; harmless.
      }
    },
  };
}
