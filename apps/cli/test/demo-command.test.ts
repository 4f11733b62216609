import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cleanEnv, fixtureProject, runCli, tempDir } from './helpers/cli.js';

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort();
}

describe('troupe demo (not a terminal, as in CI)', () => {
  it('runs seven sub-agents over the real files, queues two, approves and cancels one, and persists them', async () => {
    const project = fixtureProject();
    const before = filesUnder(project);
    const env = cleanEnv(tempDir('home'));
    const run = await runCli(['demo'], { cwd: project, env });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const out = run.stdout;
    expect(out).not.toContain('\x1b');

    // Parallel sub-agents and the queue (five at a time).
    expect(out).toContain('[general-purpose] Count lines of code ... queued (#1, waiting for a free slot)');
    expect(out).toContain(
      '[explore] Very thorough search for tests ... queued (#2, waiting for a free slot)',
    );
    // The approval, shown with its full input and approved because there is no terminal.
    expect(out).toMatch(
      /Approval needed: \[general-purpose\] Count lines of code wants to run bash \(execute\)/,
    );
    expect(out).toContain('$ find . -type f');
    expect(out).toContain('Approved automatically (not a terminal, so the demo approves it for you).');
    // The cancellation.
    expect(out).toContain('demo> cancelling [explore] Very thorough search for tests to show cancellation');
    expect(out).toMatch(/\[explore\] Very thorough search for tests - cancelled \(1 tool, /);
    // What the agents found is what is in the fixture.
    expect(out).toContain(
      'The top level holds 2 folders (src and test) and 2 files (README.md and package.json).',
    );
    expect(out).toContain('Found 3 source files and 1 Markdown file.');
    expect(out).toContain('There are 2 lines with TODO or FIXME in 2 files');
    expect(out).toContain(
      'fixture-shop is declared by package.json with 2 scripts (start and test) and executables shop.',
    );
    expect(out).toContain('There are 17 lines of source code');
    expect(out).toContain("That's all 7 tasks: 6 finished, 1 cancelled.");

    // The summary table, read back from the store.
    const table = out.slice(out.indexOf('Tasks, as persisted:'));
    expect(table).toMatch(/ID\s+AGENT\s+DESCRIPTION\s+STATUS\s+TOOLS\s+TIME\s+TOKENS/);
    const rows = table.split('\n').filter((line) => /^t_\S+\s/.test(line));
    expect(rows).toHaveLength(7);
    expect(rows.filter((row) => /\scompleted\s/.test(row))).toHaveLength(6);
    expect(rows.filter((row) => /\scancelled\s/.test(row))).toHaveLength(1);
    expect(rows[0]).toMatch(/explore\s+Map the project layout\s+completed\s+1\s+\S+\s+[\d.]+k/);
    expect(out).toContain('export ANTHROPIC_API_KEY=sk-ant-...');

    // Persisted where it says, readable with `troupe tasks`; nothing written in the project.
    const dir = /The tasks were persisted in (\S+)/.exec(out)![1]!;
    expect(existsSync(join(dir, 'tasks.jsonl'))).toBe(true);
    expect(filesUnder(project)).toEqual(before);
    const listed = await runCli(['tasks', 'list', '--store', dir], { cwd: project, env });
    expect(listed.code).toBe(0);
    expect(listed.stdout.split('\n').filter((line) => /^t_\S+\s/.test(line))).toHaveLength(7);
  });
});
