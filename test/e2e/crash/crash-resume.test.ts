// The real crash test: a child Node process runs a runtime with a file store, is killed with
// SIGKILL at chosen points, and a new process restores. Every task is accounted for, ends exactly
// once, and no write tool runs twice.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const here = dirname(fileURLToPath(import.meta.url));
const child = join(here, 'child.ts');
const teamChild = join(here, 'team-child.ts');
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function start(scenario: string, phase: string, store: string, ledger: string) {
  const script = scenario === 'team' ? teamChild : child;
  const proc = spawn(
    process.execPath,
    ['--conditions=source', '--import', 'tsx', script, scenario, phase, store, ledger],
    {
      cwd: here,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  let err = '';
  const waiters: { test: (text: string) => boolean; resolve: () => void }[] = [];
  proc.stdout!.on('data', (chunk) => {
    out += chunk;
    for (const waiter of [...waiters])
      if (waiter.test(out)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
  });
  proc.stderr!.on('data', (chunk) => {
    err += chunk;
  });
  const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
  return {
    proc,
    exited,
    output: () => out,
    errors: () => err,
    /** Resolves when stdout has every marker (or rejects if the process exits first). */
    waitFor(...markers: string[]) {
      const test = (text: string) => markers.every((marker) => text.includes(`MARK ${marker}`));
      if (test(out)) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        waiters.push({ test, resolve });
        void exited.then((code) =>
          reject(new Error(`child exited (${code}) before ${markers.join(', ')}\n${out}\n${err}`)),
        );
      });
    },
  };
}

/** A fresh folder for one case: its file store and the write tool's ledger. */
function caseFolder(): { store: string; ledger: string } {
  const dir = mkdtempSync(join(tmpdir(), 'troupe-crash-'));
  dirs.push(dir);
  return { store: join(dir, 'store'), ledger: join(dir, 'ledger.txt') };
}

/** Runs `scenario` until its stdout has every marker, then kills the process with SIGKILL. */
async function runAndKill(scenario: string, store: string, ledger: string, ...markers: string[]) {
  const first = start(scenario, 'run', store, ledger);
  await first.waitFor(...markers);
  first.proc.kill('SIGKILL');
  await first.exited;
}

function statusLines(store: string): { taskId: string; event: string; spec?: unknown }[] {
  return readFileSync(join(store, 'tasks.jsonl'), 'utf8')
    .split('\n')
    .filter((line) => {
      try {
        JSON.parse(line);
        return true;
      } catch {
        return false;
      }
    })
    .map((line) => JSON.parse(line));
}

/** What the child of the plain scenarios prints on its RESULT line after restoring. */
interface Restored {
  restored: string[];
  warnings: unknown[];
  results: { status: string; output: string; taskId: string }[];
}

/** Restores `scenario` in a new process: its RESULT line, parsed, and its whole output. */
async function restore<TResult = Restored>(
  scenario: string,
  store: string,
  ledger: string,
): Promise<TResult & { output: string }> {
  const second = start(scenario, 'restore', store, ledger);
  const code = await second.exited;
  expect(code, second.errors()).toBe(0);
  const line = second
    .output()
    .split('\n')
    .find((text) => text.startsWith('RESULT '))!;
  return { ...(JSON.parse(line.slice('RESULT '.length)) as TResult), output: second.output() };
}

function endsPerTask(store: string): Map<string, number> {
  const ends = new Map<string, number>();
  for (const record of statusLines(store)) {
    if (record.event === 'task.queued') ends.set(record.taskId, ends.get(record.taskId) ?? 0);
    if (['task.completed', 'task.failed', 'task.cancelled'].includes(record.event))
      ends.set(record.taskId, (ends.get(record.taskId) ?? 0) + 1);
  }
  return ends;
}

// Each case starts two processes (run and kill, then restore): 5–14 s alone, over 20 s on a loaded machine.
describe('crash and resume across processes (SIGKILL)', { timeout: 60_000 }, () => {
  it('killed mid model call, mid write tool and awaiting approval, with tasks queued', async () => {
    const { store, ledger } = caseFolder();
    await runAndKill('points', store, ledger, 'spawned', 'A-model', 'B-tool', 'C-approval');
    expect(readFileSync(ledger, 'utf8')).toBe('B-1 B\n');

    const { restored, results, output } = await restore('points', store, ledger);
    expect(restored).toHaveLength(5);
    expect(results.map((result) => [result.status, result.output])).toEqual([
      ['completed', 'A finished'],
      ['completed', 'B finished'],
      ['completed', 'C finished'],
      ['completed', 'D finished'],
      ['completed', 'E finished'],
    ]);
    // C's approval was asked again after the restart; B's write ran once, never again.
    expect(output).toContain(`MARK approval-asked ${restored[2]}`);
    expect(readFileSync(ledger, 'utf8').split('\n').filter(Boolean).sort()).toEqual(['B-1 B', 'C-1 C']);
    const ends = endsPerTask(store);
    expect([...ends.values()]).toEqual([1, 1, 1, 1, 1]);
  });

  for (const killAfter of [25, 100, 175]) {
    it(`killed while writing records fast (after ${killAfter} of 300 tasks completed)`, async () => {
      const { store, ledger } = caseFolder();
      await runAndKill('many', store, ledger, 'spawned', `completed ${killAfter}`);
      const before = endsPerTask(store);
      expect(before.size).toBe(300);

      const { results } = await restore('many', store, ledger);
      expect(results.every((result) => result.status === 'completed')).toBe(true);
      const ends = endsPerTask(store);
      expect(ends.size).toBe(300);
      expect([...ends.entries()].filter(([, count]) => count !== 1)).toEqual([]);
    });
  }

  it('an agent team killed mid write tool is restored in a new process: it finishes, nothing lost or doubled, and replays exactly', async () => {
    const { store, ledger } = caseFolder();
    await runAndKill('team', store, ledger, 'save');
    const [interrupted] = readFileSync(ledger, 'utf8').split('\n');
    expect(interrupted).toMatch(/ the report$/);

    const { result, replay, received } = await restore<{
      result: {
        status: string;
        output: string;
        tasks: { status: string }[];
        messages: { id: string; to: string }[];
      };
      replay: { matches: boolean; differences: string[] };
      received: Record<string, string[]>;
    }>('team', store, ledger);
    expect(result.status).toBe('completed');
    expect(result.output).toBe('The report is written.');
    expect(result.tasks.map((task) => task.status)).toEqual(['completed', 'completed', 'completed']);
    // Every message reached its addressee once, in order, across the crash.
    for (const member of ['lead', 'alice', 'bob', 'carol'])
      expect(received[member] ?? [], member).toEqual(
        result.messages.filter((message) => message.to === member).map((message) => message.id),
      );
    // The write interrupted by the kill was not run again (carol was told; her new call ran once).
    const calls = readFileSync(ledger, 'utf8').split('\n').filter(Boolean);
    expect(new Set(calls.map((call) => call.split(' ')[0])).size).toBe(calls.length);
    expect(calls).toHaveLength(2);
    expect(replay).toEqual({ matches: true, differences: [] });
    // Each task (the team's and every spell) ended exactly once.
    expect([...endsPerTask(store).values()].every((count) => count === 1)).toBe(true);
  });
});
