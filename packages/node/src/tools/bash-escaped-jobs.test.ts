// Issue #21, item 7: `unset TROUPE_BASH_JOB; setsid -f sleep 1000` outlived the bash call, since
// escaped jobs were found by an environment tag the command can drop. Each call now runs in its own
// cgroup where one can be made (as here), which no process of the call can leave unless it may
// write to cgroup files (root).
import { readdirSync, readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestWorkspace, type TestWorkspace, toolContext } from '../../test/helpers/workspace.js';
import { createBashTool } from './bash-tool.js';
import { jobCgroupsAvailable } from './job-cgroup.js';

let ws: TestWorkspace;
let marker: string;
let counter = 0;
beforeEach(async () => {
  ws = await createTestWorkspace();
  marker = `troupe-escape-${process.pid}-${++counter}-job`;
});
afterEach(async () => {
  for (const pid of findMarked(marker)) process.kill(pid, 'SIGKILL');
  await ws.cleanup();
});

/** Live processes whose command line holds `text` (zombies have none). */
function findMarked(text: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'latin1').includes(text)) found.push(Number(entry));
    } catch {
      // Gone meanwhile.
    }
  }
  return found;
}

/** Whether every process holding `text` is gone, checking again on each event-loop turn for a while. */
async function allGone(text: string, turns = 200_000): Promise<boolean> {
  for (let turn = 0; turn < turns; turn++) {
    if (findMarked(text).length === 0) return true;
    await new Promise((resolve) => setImmediate(resolve));
  }
  return false;
}

/**
 * The marker as written in a command: the shell makes it whole, so that no command line but the
 * job's holds it (`-"job"` runs as `-job`, the pattern `-[j]ob` matches only `-job`).
 */
const quoted = (name: string) => name.replace(/-job$/, '-"job"');
const pattern = (name: string) => name.replace(/-job$/, '-[j]ob');

/** A command that starts `wrap` (which runs a process named by the marker) and waits until it runs. */
const escaping = (wrap: (job: string) => string) => (name: string) =>
  `${wrap(`bash -c 'exec -a ${quoted(name)} sleep 1000'`)}\nuntil pgrep -f '${pattern(name)}' >/dev/null; do :; done; echo started`;

const escapes: Record<string, (name: string) => string> = {
  'unset TROUPE_BASH_JOB; setsid -f': escaping((job) => `unset TROUPE_BASH_JOB; setsid -f ${job}`),
  'env -i setsid -f (a cleared environment)': escaping((job) => `env -i PATH="$PATH" setsid -f ${job}`),
  'nohup ... &': escaping((job) => `unset TROUPE_BASH_JOB; nohup ${job} >/dev/null 2>&1 &`),
  'a double fork into a new session': escaping((job) => `unset TROUPE_BASH_JOB; (setsid ${job} &)`),
  'setsid -f, then the shell exits at once': (name) =>
    `unset TROUPE_BASH_JOB; setsid -f bash -c 'exec -a ${quoted(name)} sleep 1000' >/dev/null 2>&1 < /dev/null; echo started`,
};

describe('bash jobs that try to outlive the call', () => {
  it('runs here with cgroups available (as root in this container), so the cgroup path is tested', () => {
    expect(jobCgroupsAvailable()).toBe(true);
  });

  it.each(Object.keys(escapes))('stops a job started with %s', async (name) => {
    const bash = createBashTool({ root: ws.root, bashKillGraceMs: 100 });
    const text = String(
      await bash.execute({ command: escapes[name]!(marker), timeout: 20_000 }, toolContext()),
    );
    expect(text).toMatch(/^started\n\[Exit code: 0\]$/);
    expect(await allGone(marker), `a process named ${marker} outlived the call`).toBe(true);
  });

  it('stops a job that escaped by every means when the call is cancelled', async () => {
    const controller = new AbortController();
    const bash = createBashTool({ root: ws.root, bashKillGraceMs: 100 });
    const command = `${escapes['unset TROUPE_BASH_JOB; setsid -f']!(marker)}; sleep 1000`;
    const running = bash.execute({ command }, toolContext(controller.signal));
    while (findMarked(marker).length === 0) await new Promise((resolve) => setImmediate(resolve));
    controller.abort();
    await expect(running).rejects.toThrow('cancelled');
    expect(await allGone(marker)).toBe(true);
  });

  it('without a cgroup, still stops a job that left the process group but not the session', async () => {
    const bash = createBashTool({ root: ws.root, bashKillGraceMs: 100, bashCgroup: false });
    const command = escaping((job) => `unset TROUPE_BASH_JOB; set -m; ${job} &`)(marker);
    const text = String(await bash.execute({ command, timeout: 20_000 }, toolContext()));
    expect(text).toMatch(/started\n\[Exit code: 0\]$/);
    expect(await allGone(marker), `a process named ${marker} outlived the call`).toBe(true);
  });
});
