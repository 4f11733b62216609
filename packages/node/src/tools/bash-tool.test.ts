import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { failureOf, toolContext, useTestWorkspace } from '../../test/helpers/workspace.js';
import { createBashTool } from './bash-tool.js';

const ws = useTestWorkspace({ 'file.txt': 'hello\n' });

/** Gone means no such process, or a zombie waiting for its new parent to reap it. */
function isGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return true;
  }
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.startsWith('Z') ?? false;
  } catch {
    return true;
  }
}

/**
 * Resolves whether `pid` is gone. A process closes its pipes a moment before it becomes a zombie,
 * and the exit of a process that is not our child cannot be awaited, so this checks again on each
 * event-loop turn, for at most `turns` turns.
 */
async function becomesGone(pid: number, turns = 200_000): Promise<boolean> {
  for (let turn = 0; turn < turns; turn++) {
    if (isGone(pid)) return true;
    await new Promise((resolve) => setImmediate(resolve));
  }
  return false;
}

const pidsIn = (text: string) => [...text.matchAll(/pid=(\d+)/g)].map((match) => Number(match[1]));

describe('bash', () => {
  it('runs in the workspace root and reports output and exit code', async () => {
    const bash = createBashTool({ root: ws.root });
    expect(await bash.execute({ command: 'pwd; cat file.txt; echo oops >&2; exit 3' }, toolContext())).toBe(
      `${ws.root}\nhello\noops\n[Exit code: 3]`,
    );
    expect(await bash.execute({ command: 'true' }, toolContext())).toBe('(no output)\n[Exit code: 0]');
  });

  it("keeps troupe's own credentials out of commands unless given an environment", async () => {
    process.env.ANTHROPIC_API_KEY = 'sk-ant-test-secret';
    try {
      // biome-ignore lint/suspicious/noTemplateCurlyInString: shell parameter expansion, not a template
      const command = 'echo "key=${ANTHROPIC_API_KEY:-unset} home=${HOME:+set}"';
      expect(await createBashTool({ root: ws.root }).execute({ command }, toolContext())).toBe(
        'key=unset home=set\n[Exit code: 0]',
      );
      const explicit = createBashTool({ root: ws.root, bashEnv: { ANTHROPIC_API_KEY: 'given', HOME: '/x' } });
      expect(await explicit.execute({ command }, toolContext())).toBe('key=given home=set\n[Exit code: 0]');
    } finally {
      delete process.env.ANTHROPIC_API_KEY;
    }
  });

  it('keeps the start and end of long output with a note', async () => {
    const bash = createBashTool({ root: ws.root, maxOutputChars: 1_000 });
    const text = String(await bash.execute({ command: 'seq 1 100000' }, toolContext()));
    expect(text.startsWith('1\n2\n3\n')).toBe(true);
    expect(text.endsWith('99999\n100000\n[Exit code: 0]')).toBe(true);
    expect(text).toMatch(/\[\.\.\. output truncated: [\d,]+ of 588,895 characters cut \.\.\.\]/);
    expect(text.length).toBeLessThan(1_200);
  });

  it('kills the whole process group on timeout', async () => {
    const bash = createBashTool({ root: ws.root, bashKillGraceMs: 100 });
    const error = await failureOf(() =>
      bash.execute(
        { command: 'sleep 30 & echo pid=$!; sleep 30 & echo pid=$!; echo pid=$$; wait', timeout: 300 },
        toolContext(),
      ),
    );
    expect(error?.message).toMatch(
      /^The command timed out after 300 ms and its processes were killed\. Output so far:\npid=/,
    );
    const pids = pidsIn(error!.message);
    expect(pids).toHaveLength(3);
    for (const pid of pids) expect(await becomesGone(pid), `process ${pid} survived`).toBe(true);
  });

  it('escalates to SIGKILL for processes that ignore SIGTERM', async () => {
    const bash = createBashTool({ root: ws.root, bashKillGraceMs: 100 });
    const error = await failureOf(() =>
      bash.execute({ command: "trap '' TERM; sleep 30 & echo pid=$!; wait", timeout: 200 }, toolContext()),
    );
    const pids = pidsIn(String(error?.message));
    expect(pids).toHaveLength(1);
    expect(await becomesGone(pids[0]!)).toBe(true);
  });

  it('kills the whole process group when cancelled', async () => {
    const fifo = join(ws.base, 'ready.fifo');
    execFileSync('mkfifo', [fifo]);
    const controller = new AbortController();
    const bash = createBashTool({ root: ws.root, bashKillGraceMs: 100 });
    const running = bash.execute(
      {
        command: `sleep 30 & a=$!; (sleep 30; echo never) & b=$!; echo "pid=$a pid=$b pid=$$" > ${fifo}; wait`,
      },
      toolContext(controller.signal),
    );
    const pids = pidsIn(await readFile(fifo, 'utf8'));
    expect(pids).toHaveLength(3);
    for (const pid of pids) expect(isGone(pid)).toBe(false);
    controller.abort();
    await expect(running).rejects.toThrow('The command was cancelled and its processes were killed.');
    for (const pid of pids) expect(await becomesGone(pid), `process ${pid} survived`).toBe(true);
  });

  it('stops background jobs the command leaves behind', async () => {
    const bash = createBashTool({ root: ws.root, bashKillGraceMs: 100 });
    const text = String(await bash.execute({ command: 'sleep 30 & echo pid=$!' }, toolContext()));
    expect(text).toMatch(/^pid=\d+\n\[Exit code: 0\]$/);
    expect(await becomesGone(pidsIn(text)[0]!)).toBe(true);
  });

  it('refuses timeouts above the maximum and reports a shell that cannot start', async () => {
    const bash = createBashTool({ root: ws.root, bashMaxTimeoutMs: 1_000 });
    await expect(bash.execute({ command: 'true', timeout: 5_000 }, toolContext())).rejects.toThrow(
      'timeout 5000 ms is above the maximum of 1000 ms',
    );
    const broken = createBashTool({ root: ws.root, shell: '/nonexistent/bash' });
    await expect(broken.execute({ command: 'true' }, toolContext())).rejects.toThrow(
      /Could not start "\/nonexistent\/bash"/,
    );
  });

  it('is an execute tool', () => {
    expect(createBashTool({ root: ws.root }).access).toBe('execute');
  });
});
