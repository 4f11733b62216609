import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RuntimeWarning } from '@troupe/core';
import { turnOf } from '@troupe/core/testing';
import { describe, expect, it } from 'vitest';
import { lastMessage, text, toolCall, useHookFolder } from '../../test/helpers/hook-folder.js';
import { type HookConfig, readHookConfig } from './hook-config.js';

const folder = useHookFolder();

function settingsOf(json: object): HookConfig {
  const { config, problems } = readHookConfig(json, join(folder.dir, '.claude/settings.json'));
  expect(problems).toEqual([]);
  return config;
}

describe('shell hooks', () => {
  it('a PreToolUse hook that blocks `bash rm` stops the call and the model sees its reason', async () => {
    writeFileSync(join(folder.dir, 'keep.txt'), 'precious');
    const hook = folder.script(
      'no-rm.sh',
      `input=$(cat)\ncase "$input" in *'"command":"rm '*) echo "rm is forbidden in this project: use git clean" >&2; exit 2;; esac\nexit 0`,
    );
    const { runtime, model } = folder.runtime(
      settingsOf({ PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: hook }] }] }),
      (request) => (turnOf(request) === 1 ? toolCall('bash', { command: 'rm keep.txt' }) : text('ok')),
    );
    const result = await runtime.spawn({ agent: 'worker', prompt: 'Clean up' }).result;
    await runtime.shutdown();
    expect(result.status).toBe('completed');
    expect(existsSync(join(folder.dir, 'keep.txt'))).toBe(true);
    expect(lastMessage(model.requests[1]!)).toContain('rm is forbidden in this project: use git clean');
  });

  it('a SubagentStop hook that blocks once makes the sub-agent continue once', async () => {
    const log = join(folder.dir, 'stops.log');
    const hook = folder.script(
      'stop.sh',
      `input=$(cat)\necho "$input" >> ${log}\ncase "$input" in *'"stop_hook_active":false'*) echo '{"decision":"block","reason":"Run the tests before you stop."}';; esac`,
    );
    const { runtime, model } = folder.runtime(
      settingsOf({ SubagentStop: [{ hooks: [{ type: 'command', command: hook }] }] }),
      (request) => text(`answer ${turnOf(request)}`),
    );
    const result = await runtime.spawn({ agent: 'worker', prompt: 'Fix it' }).result;
    await runtime.shutdown();
    expect(result).toMatchObject({ status: 'completed', output: 'answer 2', turns: 2 });
    expect(lastMessage(model.requests[1]!)).toContain('Stop hook feedback: Run the tests before you stop.');
    const inputs = readFileSync(log, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(inputs).toHaveLength(2);
    expect(inputs[0]).toMatchObject({
      hook_event_name: 'SubagentStop',
      agent_type: 'worker',
      stop_hook_active: false,
      last_assistant_message: 'answer 1',
    });
    expect(inputs[0].agent_transcript_path).toEqual(expect.any(String));
    expect(existsSync(inputs[0].agent_transcript_path)).toBe(false);
    expect(inputs[1]).toMatchObject({ stop_hook_active: true, last_assistant_message: 'answer 2' });
  });

  it('a hanging hook is killed at its timeout with its children, and counts as no answer', async () => {
    const pidFile = join(folder.dir, 'child.pid');
    const hook = folder.script('hang.sh', `sleep 300 &\necho $! > ${pidFile}\nwait`);
    const { runtime, warnings } = folder.runtime(
      settingsOf({
        PreToolUse: [{ matcher: 'bash', hooks: [{ type: 'command', command: hook, timeout: 1 }] }],
      }),
      (request) => (turnOf(request) === 1 ? toolCall('bash', { command: 'echo ran > ran.txt' }) : text('ok')),
    );
    const started = Date.now();
    await runtime.spawn({ agent: 'worker', prompt: 'Run' }).result;
    await runtime.shutdown();
    expect(Date.now() - started).toBeLessThan(8_000);
    expect(readFileSync(join(folder.dir, 'ran.txt'), 'utf8')).toBe('ran\n');
    expect(warnings).toEqual([expect.stringContaining('timed out and was killed')]);
    const child = Number(readFileSync(pidFile, 'utf8'));
    let alive = true;
    for (let tries = 0; tries < 50 && alive; tries++) {
      try {
        process.kill(child, 0);
        alive = !readFileSync(`/proc/${child}/stat`, 'utf8').split(') ')[1]?.startsWith('Z');
      } catch {
        alive = false;
      }
      if (alive) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(alive).toBe(false);
  });

  it("a hook's huge output is capped before it reaches the model", async () => {
    const hook = folder.script(
      'loud.sh',
      `cat > /dev/null\nhead -c 2000000 /dev/zero | tr '\\0' x >&2\nexit 2`,
    );
    const warnings: RuntimeWarning[] = [];
    const { runtime, model } = folder.runtime(
      settingsOf({ PreToolUse: [{ hooks: [{ type: 'command', command: hook }] }] }),
      (request) => (turnOf(request) === 1 ? toolCall('bash', { command: 'ls' }) : text('ok')),
    );
    runtime.on('runtime.warning', (warning) => warnings.push(warning));
    await runtime.spawn({ agent: 'worker', prompt: 'List' }).result;
    await runtime.shutdown();
    const seen = lastMessage(model.requests[1]!);
    expect(seen).toContain('hook output cut');
    expect(seen.length).toBeLessThan(12_000);
  });

  it('a malformed hook definition is a problem naming the file and line, and the good ones are kept', () => {
    const file = join(folder.dir, '.claude', 'settings.json');
    const textOfFile = `{
  "hooks": {
    "PreToolUse": [
      { "matcher": "Bash", "hooks": [{ "type": "command", "command": "true" }] }
    ],
    "PostToolUse": "not a list",
    "SubagentStop": [{ "hooks": [{ "type": "command" }] }]
  }
}`;
    const { config, problems } = readHookConfig(JSON.parse(textOfFile).hooks, file, { text: textOfFile });
    expect(config.PreToolUse).toHaveLength(1);
    expect(problems.map((problem) => problem.message)).toEqual([
      `${file}:6: hooks.PostToolUse must be a list of { "matcher", "hooks": [...] } entries; it was ignored.`,
      `${file}:7: hooks.SubagentStop[0].hooks[0].command must be a non-empty shell command; the hook was ignored.`,
    ]);
    const agent = readHookConfig({ Stop: [{ hooks: [{ type: 'command', command: 'true' }] }] }, 'a.md', {
      agentFile: true,
    });
    expect(agent.config.SubagentStop).toHaveLength(1);
  });
});
