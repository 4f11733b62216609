// Issue #14, item 2: nothing a model, a tool or a host callback returns may take down the process.
// Each attack runs in a child process (with the file store); the child must stay alive, the task
// must end, and its journal must replay to the recorded result.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const here = dirname(fileURLToPath(import.meta.url));
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

interface Outcome {
  code: number | null;
  result?: {
    status: string;
    terminateReason: string;
    error?: string;
    output: string;
    replayMatches: boolean;
    denied: boolean;
    warnings: string[];
    journalChars: number;
  };
  stderr: string;
}

function runAttack(attack: string): Promise<Outcome> {
  const dir = mkdtempSync(join(tmpdir(), 'troupe-attack-'));
  dirs.push(dir);
  const child = spawn(
    process.execPath,
    ['--conditions=source', '--import', 'tsx', join(here, 'crash-child.ts'), attack, dir],
    { cwd: here, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => {
    out += chunk;
  });
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  return new Promise((resolve) => {
    child.on('exit', (code) => {
      const line = out.split('\n').find((text) => text.startsWith('RESULT '));
      resolve({ code, stderr, ...(line ? { result: JSON.parse(line.slice(7)) } : {}) });
    });
  });
}

describe('a hostile model or host callback cannot crash the process', () => {
  it('a tool input nested 6,000 levels deep is an error result, not a stack overflow', async () => {
    const outcome = await runAttack('deep-tool-input');
    expect(outcome.stderr).not.toMatch(/RangeError|Maximum call stack/);
    expect(outcome.code).toBe(0);
    expect(outcome.result).toMatchObject({ status: 'completed', replayMatches: true });
  }, 60_000);

  it.each(['response-without-usage', 'response-content-null', 'response-undefined'])(
    'a malformed model response (%s) ends that task with ERROR',
    async (attack) => {
      const outcome = await runAttack(attack);
      expect(outcome.stderr).not.toMatch(/TypeError/);
      expect(outcome.code).toBe(0);
      if (attack === 'response-without-usage') {
        // Text without usage is usable: the usage is estimated, with a warning.
        expect(outcome.result).toMatchObject({ status: 'completed', replayMatches: true });
        expect(outcome.result?.warnings).toContain('USAGE_ESTIMATED');
      } else {
        expect(outcome.result).toMatchObject({
          status: 'failed',
          terminateReason: 'ERROR',
          replayMatches: true,
        });
        expect(outcome.result?.error).toMatch(/malformed model response/i);
      }
    },
    60_000,
  );

  it('an approval policy returning undefined denies the call with a warning', async () => {
    const outcome = await runAttack('policy-returns-undefined');
    expect(outcome.code).toBe(0);
    expect(outcome.result).toMatchObject({ status: 'completed', denied: true, replayMatches: true });
    expect(outcome.result?.warnings).toContain('APPROVAL_POLICY_INVALID');
  }, 60_000);

  it('twelve tool results of 50 MB are capped in the journal, with a note', async () => {
    const outcome = await runAttack('huge-tool-results');
    expect(outcome.stderr).not.toMatch(/Invalid string length/);
    expect(outcome.code).toBe(0);
    expect(outcome.result).toMatchObject({ status: 'completed', replayMatches: true });
    expect(outcome.result?.journalChars).toBeLessThan(50 * 1024 * 1024);
  }, 120_000);
});
