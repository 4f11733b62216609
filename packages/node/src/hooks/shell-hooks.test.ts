import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRuntime, type ModelRequest, type RuntimeWarning } from '@troupe/core';
import { scriptedModel } from '@troupe/core/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createNodeTools } from '../tools/create-node-tools.js';
import { type HookConfig, readHookConfig } from './hook-config.js';
import { createShellHooks } from './shell-hooks.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'troupe-hooks-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const turnOf = (request: ModelRequest) =>
  request.messages.filter((message) => message.role === 'assistant').length + 1;
const lastMessage = (request: ModelRequest) => JSON.stringify(request.messages[request.messages.length - 1]);
const bashCall = (command: string) => ({
  content: [{ type: 'tool_use' as const, id: 'call-1', name: 'bash', input: { command } }],
});
const text = (value: string) => ({ content: [{ type: 'text' as const, text: value }] });

/** A hook script in the test folder. */
function script(name: string, body: string): string {
  const path = join(dir, name);
  writeFileSync(path, `#!/bin/sh\n${body}\n`, { mode: 0o755 });
  return path;
}

function settingsOf(json: object): HookConfig {
  const { config, problems } = readHookConfig(json, join(dir, '.claude/settings.json'));
  expect(problems).toEqual([]);
  return config;
}

function runtimeWith(
  hooks: HookConfig,
  script: Parameters<typeof scriptedModel>[0],
  warnings: string[] = [],
) {
  const model = scriptedModel(script);
  const runtime = createRuntime({
    model,
    tools: createNodeTools({ root: dir }),
    agents: [{ name: 'worker', description: 'Works.', systemPrompt: 'You work.' }],
    approval: 'auto',
    hooks: createShellHooks({
      cwd: dir,
      settings: [hooks],
      onWarning: (message) => warnings.push(message),
      defaultTimeoutSeconds: 10,
    }),
  });
  return { runtime, model };
}

describe('shell hooks', () => {
  it('a PreToolUse hook that blocks `bash rm` stops the call and the model sees its reason', async () => {
    writeFileSync(join(dir, 'keep.txt'), 'precious');
    const hook = script(
      'no-rm.sh',
      `input=$(cat)\ncase "$input" in *'"command":"rm '*) echo "rm is forbidden in this project: use git clean" >&2; exit 2;; esac\nexit 0`,
    );
    const { runtime, model } = runtimeWith(
      settingsOf({ PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: hook }] }] }),
      (request) => (turnOf(request) === 1 ? bashCall('rm keep.txt') : text('ok')),
    );
    const result = await runtime.spawn({ agent: 'worker', prompt: 'Clean up' }).result;
    await runtime.shutdown();
    expect(result.status).toBe('completed');
    expect(existsSync(join(dir, 'keep.txt'))).toBe(true);
    expect(lastMessage(model.requests[1]!)).toContain('rm is forbidden in this project: use git clean');
  });

  it('a SubagentStop hook that blocks once makes the sub-agent continue once', async () => {
    const log = join(dir, 'stops.log');
    const hook = script(
      'stop.sh',
      `input=$(cat)\necho "$input" >> ${log}\ncase "$input" in *'"stop_hook_active":false'*) echo '{"decision":"block","reason":"Run the tests before you stop."}';; esac`,
    );
    const { runtime, model } = runtimeWith(
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
    const pidFile = join(dir, 'child.pid');
    const hook = script('hang.sh', `sleep 300 &\necho $! > ${pidFile}\nwait`);
    const warnings: string[] = [];
    const { runtime } = runtimeWith(
      settingsOf({
        PreToolUse: [{ matcher: 'bash', hooks: [{ type: 'command', command: hook, timeout: 1 }] }],
      }),
      (request) => (turnOf(request) === 1 ? bashCall('echo ran > ran.txt') : text('ok')),
      warnings,
    );
    const started = Date.now();
    await runtime.spawn({ agent: 'worker', prompt: 'Run' }).result;
    await runtime.shutdown();
    expect(Date.now() - started).toBeLessThan(8_000);
    expect(readFileSync(join(dir, 'ran.txt'), 'utf8')).toBe('ran\n');
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
    const hook = script('loud.sh', `cat > /dev/null\nhead -c 2000000 /dev/zero | tr '\\0' x >&2\nexit 2`);
    const warnings: RuntimeWarning[] = [];
    const { runtime, model } = runtimeWith(
      settingsOf({ PreToolUse: [{ hooks: [{ type: 'command', command: hook }] }] }),
      (request) => (turnOf(request) === 1 ? bashCall('ls') : text('ok')),
    );
    runtime.on('runtime.warning', (warning) => warnings.push(warning));
    await runtime.spawn({ agent: 'worker', prompt: 'List' }).result;
    await runtime.shutdown();
    const seen = lastMessage(model.requests[1]!);
    expect(seen).toContain('hook output cut');
    expect(seen.length).toBeLessThan(12_000);
  });

  it('a malformed hook definition is a problem naming the file and line, and the good ones are kept', () => {
    const file = join(dir, '.claude', 'settings.json');
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
