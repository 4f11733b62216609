import { spawnSync } from 'node:child_process';
import { readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './helpers/cli.js';
import { useCrashedRuns } from './helpers/crashed-run.js';

const crashedRun = useCrashedRuns();

const stackLine = /^\s+at /m;

describe('troupe tasks resume over a damaged store', { timeout: 120_000 }, () => {
  it('a snapshot with a null context (its journal lost): the task fails with one clear line naming it and the file, no stack trace', async () => {
    const { project, store, env, taskId: id } = await crashedRun();
    const snapshot = join(store, `${id}.snapshot.json`);
    const document = JSON.parse(readFileSync(snapshot, 'utf8'));
    document.snapshot.context = null;
    writeFileSync(snapshot, JSON.stringify(document));
    unlinkSync(join(store, `${id}.journal.jsonl`));
    const resumed = await runCli(['tasks', 'resume', '--store', store], { cwd: project, env });
    expect(resumed.stderr).not.toMatch(stackLine);
    expect(resumed.code).not.toBe(0);
    expect(resumed.stderr).toContain(`Task ${id} cannot be restored`);
    expect(resumed.stderr).toContain(snapshot);
    expect(resumed.stderr).toContain(`find login - failed, ERROR: Task ${id} cannot be restored`);
    const listed = await runCli(['tasks', 'list', '--store', store], { cwd: project, env });
    expect(listed.stdout).toMatch(new RegExp(`${id}\\s+explore\\s+find login\\s+failed`));
  });

  it('a FIFO in place of the status log: one line naming it, no hang, no stack trace', async () => {
    const { project, store, env } = await crashedRun();
    const log = join(store, 'tasks.jsonl');
    unlinkSync(log);
    expect(spawnSync('mkfifo', [log]).status).toBe(0);
    const resumed = await runCli(['tasks', 'resume', '--store', store], { cwd: project, env });
    expect(resumed.code).toBe(1);
    expect(resumed.stderr).not.toMatch(stackLine);
    expect(resumed.stderr).toBe(
      `troupe: "${log}" is not a regular file (a FIFO); the task store reads and writes only regular files. Remove it or move it out of the store directory.\n`,
    );
  });
});
