import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { textStep, toolResultsOf, toolStep } from '../../../test/fake-anthropic/index.js';
import { runCli, tempDir } from './helpers/cli.js';
import { useFakeClaudeProject } from './helpers/fake-claude-project.js';

// A cloned repository whose settings and agent file bring hooks, a skill and agent memory: none of
// it may run or reach the model until the folder is trusted.
let markers: string;

function write(path: string, text: string, mode?: number): void {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text, mode === undefined ? undefined : { mode });
}

const cloned = useFakeClaudeProject(({ project }) => {
  markers = tempDir('markers');
  writeFileSync(join(project, 'keep.txt'), 'precious\n');
  write(
    join(project, 'hooks', 'pre.sh'),
    `#!/bin/sh\ninput=$(cat)\necho "$input" > ${markers}/pre.json\ncase "$input" in *'rm '*) echo "No rm here: move files to trash/ instead" >&2; exit 2;; esac\n`,
    0o755,
  );
  write(join(project, 'hooks', 'start.sh'), `#!/bin/sh\ncat > ${markers}/start.json\n`, 0o755);
  write(join(project, 'hooks', 'stop.sh'), `#!/bin/sh\ncat > ${markers}/stop.json\n`, 0o755);
  write(
    join(project, '.claude', 'settings.json'),
    JSON.stringify(
      {
        hooks: {
          PreToolUse: [
            { matcher: 'Bash', hooks: [{ type: 'command', command: '"$CLAUDE_PROJECT_DIR"/hooks/pre.sh' }] },
          ],
          SubagentStart: [{ hooks: [{ type: 'command', command: '"$CLAUDE_PROJECT_DIR"/hooks/start.sh' }] }],
        },
      },
      null,
      2,
    ),
  );
  write(
    join(project, '.claude', 'agents', 'cleaner.md'),
    [
      '---',
      'name: cleaner',
      'description: Cleans up',
      'tools: bash',
      'skills: [tidy]',
      'memory: project',
      'hooks:',
      '  Stop:',
      '    - hooks:',
      '        - type: command',
      '          command: "$CLAUDE_PROJECT_DIR/hooks/stop.sh"',
      '---',
      'You clean.',
      '',
    ].join('\n'),
  );
  write(
    join(project, '.claude', 'skills', 'tidy', 'SKILL.md'),
    '---\nname: tidy\ndescription: Tidy.\n---\nSKILL-TEXT: never delete.\n',
  );
  write(join(project, '.claude', 'agent-memory', 'cleaner', 'MEMORY.md'), 'MEMORY-TEXT: trash/ exists.\n');
  let bashSaid: string | undefined;
  return (request) => {
    const results = toolResultsOf(request);
    if (!results.length) return toolStep('bash', { command: 'rm keep.txt' });
    if (bashSaid === undefined) {
      bashSaid = results[0]!.content;
      return toolStep('memory_write', { file_path: 'MEMORY.md', content: 'learned: no rm here\n' });
    }
    return textStep(`Bash said: ${bashSaid}`);
  };
});

const env = () => cloned.env();
const requestText = () => JSON.stringify(cloned.server.requests.map((request) => request.body));

describe('hooks, skills and memory of a project', { timeout: 90_000 }, () => {
  it('an untrusted project runs none of its hooks, gives no skill or memory, and says so', async () => {
    const run = await runCli(['run', '--approval', 'auto', '--agent', 'cleaner', 'tidy up'], {
      cwd: cloned.project,
      env: env(),
    });
    expect(['pre.json', 'start.json', 'stop.json'].filter((name) => existsSync(join(markers, name)))).toEqual(
      [],
    );
    expect(existsSync(join(cloned.project, 'keep.txt'))).toBe(false);
    expect(run.stderr).toContain(
      'run hook commands: PreToolUse (1), SubagentStart (1)  (from .claude/settings.json)',
    );
    expect(run.stderr).toContain('run hook commands: SubagentStop (1)  (from agent cleaner)');
    expect(run.stderr).toContain("give agents the project's skills: .claude/skills/tidy/SKILL.md");
    expect(run.stderr).toContain('give agents their project memory and let them write it: cleaner (project)');
    expect(requestText()).not.toContain('SKILL-TEXT');
    expect(requestText()).not.toContain('MEMORY-TEXT');
    expect(
      readFileSync(join(cloned.project, '.claude', 'agent-memory', 'cleaner', 'MEMORY.md'), 'utf8'),
    ).toBe('MEMORY-TEXT: trash/ exists.\n');
  });

  it('trusted, its PreToolUse hook blocks `bash rm` and the model reads why; start and stop hooks run', async () => {
    const run = await runCli(
      // No --approval: bash would be refused, but the hook refuses it first; memory writes need no approval.
      ['run', '--trust-project', '--agent', 'cleaner', 'tidy up'],
      {
        cwd: cloned.project,
        env: env(),
      },
    );
    expect(run.stderr).not.toContain('troupe ignored');
    expect(existsSync(join(cloned.project, 'keep.txt'))).toBe(true);
    expect(run.stdout).toContain('No rm here: move files to trash/ instead');
    const pre = JSON.parse(readFileSync(join(markers, 'pre.json'), 'utf8'));
    expect(pre).toMatchObject({
      hook_event_name: 'PreToolUse',
      tool_name: 'bash',
      tool_input: { command: 'rm keep.txt' },
      agent_type: 'cleaner',
    });
    expect(JSON.parse(readFileSync(join(markers, 'start.json'), 'utf8'))).toMatchObject({
      hook_event_name: 'SubagentStart',
    });
    expect(JSON.parse(readFileSync(join(markers, 'stop.json'), 'utf8'))).toMatchObject({
      hook_event_name: 'SubagentStop',
      last_assistant_message: expect.stringContaining('No rm here'),
    });
    expect(requestText()).toContain('SKILL-TEXT: never delete.');
    expect(requestText()).toContain('MEMORY-TEXT: trash/ exists.');
    expect(
      readFileSync(join(cloned.project, '.claude', 'agent-memory', 'cleaner', 'MEMORY.md'), 'utf8'),
    ).toBe('learned: no rm here\n');
  });
});
