import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { replayTask } from '@troupe/core';
import { scriptedModel, turnOf } from '@troupe/core/testing';
import { describe, expect, it } from 'vitest';
import { lastMessage, text, toolCall, useHookFolder } from '../../test/helpers/hook-folder.js';
import { readHookConfig } from './hook-config.js';
import type { ShellHooksOptions } from './shell-hooks.js';

const folder = useHookFolder();

/** The hooks of a settings file written in the test folder (so messages name its lines). */
function settingsFile(hooks: object) {
  const file = join(folder.dir, 'settings.json');
  const body = JSON.stringify({ hooks }, null, 2);
  writeFileSync(file, body);
  const { config, problems } = readHookConfig(hooks, file, { text: body });
  return { file, config, problems };
}

function runtimeWith(
  hooks: object,
  modelScript: Parameters<typeof scriptedModel>[0],
  more: Partial<ShellHooksOptions> = {},
) {
  const { file, config, problems } = settingsFile(hooks);
  expect(problems).toEqual([]);
  return { ...folder.runtime(config, modelScript, more), file };
}

const command = (path: string, matcher?: string) => [
  { ...(matcher ? { matcher } : {}), hooks: [{ type: 'command', command: path }] },
];

describe("Claude Code's hook output, from real shell hooks", () => {
  it('updatedInput changes the command that runs, additionalContext reaches the model, and replay runs the same', async () => {
    const hook = folder.script(
      'rewrite.sh',
      `cat > /dev/null\necho '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"echo safe > out.txt"},"additionalContext":"commands run in a sandbox"}}'`,
    );
    const { runtime, model, store } = runtimeWith({ PreToolUse: command(hook, 'Bash') }, (request) =>
      turnOf(request) === 1 ? toolCall('bash', { command: 'echo risky > out.txt' }) : text('done'),
    );
    const { id, result } = runtime.spawn({ agent: 'worker', prompt: 'Write' });
    expect((await result).status).toBe('completed');
    expect(readFileSync(join(folder.dir, 'out.txt'), 'utf8')).toBe('safe\n');
    expect(lastMessage(model.requests[1]!)).toContain('PreToolUse hook context: commands run in a sandbox');
    writeFileSync(join(folder.dir, 'out.txt'), 'untouched');
    expect((await replayTask(store, id)).matches).toBe(true);
    expect(readFileSync(join(folder.dir, 'out.txt'), 'utf8')).toBe('untouched');
    await runtime.shutdown();
  });

  it('continue: false stops the task with its stopReason, naming the hook file and line', async () => {
    const hook = folder.script(
      'freeze.sh',
      `cat > /dev/null\necho '{"continue":false,"stopReason":"deploys are frozen"}'`,
    );
    const { runtime, file } = runtimeWith({ PreToolUse: command(hook) }, [
      toolCall('bash', { command: 'touch x' }),
    ]);
    const result = await runtime.spawn({ agent: 'worker', prompt: 'Deploy' }).result;
    expect(result).toMatchObject({ status: 'cancelled', error: { code: 'HOOK_STOPPED' } });
    expect(result.error?.message).toMatch(
      new RegExp(
        `^Stopped by a PreToolUse hook \\(\`.*freeze.sh\` \\(${file}:\\d+\\)\\): deploys are frozen$`,
      ),
    );
    await runtime.shutdown();
  });

  it('PostToolUseFailure fires once per failed call and sees the error; malformed output is a warning naming file and line', async () => {
    const log = join(folder.dir, 'failures.log');
    // The two failed reads' hooks run at once: each appends its line in one write, so lines never mix.
    const failure = folder.script('failure.sh', `input=$(cat)\nprintf '%s\\n' "$input" >> ${log}`);
    const bad = folder.script('bad.sh', `cat > /dev/null\necho '{"continue":"no","decision":"maybe"}'`);
    const { runtime, warnings, file } = runtimeWith(
      { PostToolUseFailure: command(failure), PostToolUse: command(bad) },
      (request) =>
        turnOf(request) === 1
          ? {
              content: [
                { type: 'tool_use' as const, id: 'r1', name: 'read', input: { file_path: 'missing.txt' } },
                { type: 'tool_use' as const, id: 'l1', name: 'ls', input: { path: '.' } },
                { type: 'tool_use' as const, id: 'r2', name: 'read', input: { file_path: 'gone.txt' } },
              ],
            }
          : text('done'),
    );
    await runtime.spawn({ agent: 'worker', prompt: 'Read' }).result;
    await runtime.shutdown();
    // In the order of the calls: the hooks of the two failed reads run at once and may finish either way.
    const inputs = readFileSync(log, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
      .sort((a, b) => a.tool_use_id.localeCompare(b.tool_use_id));
    expect(inputs.map((input) => [input.hook_event_name, input.tool_use_id, input.is_interrupt])).toEqual([
      ['PostToolUseFailure', 'r1', false],
      ['PostToolUseFailure', 'r2', false],
    ]);
    expect(inputs[0].error).toContain('missing.txt');
    const lines = readFileSync(file, 'utf8').split('\n');
    const line = lines.findIndex((entry) => entry.includes('bad.sh')) + 1;
    expect(warnings).toEqual([
      expect.stringMatching(
        new RegExp(
          `fields troupe cannot use: continue \\(not a boolean\\), decision "maybe".*\\(from ${file}:${line}\\)$`,
        ),
      ),
    ]);
  });

  it('an http hook posts the event to an allowed URL; a URL not allowed is never requested', async () => {
    const bodies: unknown[] = [];
    const server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => {
        body += chunk;
      });
      request.on('end', () => {
        bodies.push(JSON.parse(body));
        response.setHeader('content-type', 'application/json');
        response.end(
          JSON.stringify({
            hookSpecificOutput: {
              permissionDecision: 'deny',
              permissionDecisionReason: 'policy server says no',
            },
          }),
        );
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
    try {
      const { runtime, model, warnings } = runtimeWith(
        {
          PreToolUse: [
            { matcher: 'bash', hooks: [{ type: 'http', url, timeout: 5 }] },
            { matcher: 'bash', hooks: [{ type: 'http', url: 'https://hooks.example.com/x' }] },
          ],
        },
        (request) => (turnOf(request) === 1 ? toolCall('bash', { command: 'touch made' }) : text('ok')),
      );
      await runtime.spawn({ agent: 'worker', prompt: 'Make' }).result;
      await runtime.shutdown();
      expect(bodies).toEqual([
        expect.objectContaining({
          hook_event_name: 'PreToolUse',
          tool_name: 'bash',
          tool_input: { command: 'touch made' },
        }),
      ]);
      expect(lastMessage(model.requests[1]!)).toContain('policy server says no');
      expect(warnings).toEqual([
        expect.stringContaining(
          'https://hooks.example.com/x` was not run: its URL is not in allowedHttpHookUrls',
        ),
      ]);
    } finally {
      server.close();
    }
  });

  it("a prompt hook is one model call judging the event; ok: false blocks the main agent's stop with its reason", async () => {
    const judge = scriptedModel((request) =>
      String(request.messages[0]?.content).includes('"stop_hook_active":false')
        ? text('```json\n{"ok": false, "reason": "You did not run the tests."}\n```')
        : text('{"ok": true}'),
    );
    const { runtime, model } = runtimeWith(
      { Stop: [{ hooks: [{ type: 'prompt', prompt: 'Did the agent finish? $ARGUMENTS' }] }] },
      (request) => text(`reply ${turnOf(request)}`),
      { promptHooks: { model: judge, modelId: 'small-model' } },
    );
    const session = runtime.createSession({ sessionKey: 's' });
    expect((await session.send('Fix it')).text).toBe('reply 2');
    expect(lastMessage(model.requests[1]!)).toContain('Stop hook feedback: You did not run the tests.');
    expect(judge.requests.map((request) => request.model)).toEqual(['small-model', 'small-model']);
    expect(String(judge.requests[0]!.messages[0]!.content)).toMatch(
      /^Did the agent finish\? \{.*"hook_event_name":"Stop"/,
    );
    await runtime.shutdown();
  });

  it('UserPromptSubmit: plain stdout is context for the main agent', async () => {
    const hook = folder.script('branch.sh', `cat > /dev/null\necho "current branch: feature/login"`);
    const { runtime, model } = runtimeWith({ UserPromptSubmit: command(hook) }, [text('ok')]);
    await runtime.createSession({ sessionKey: 's' }).send('What branch?');
    await runtime.shutdown();
    expect(lastMessage(model.requests[0]!)).toContain(
      'UserPromptSubmit hook context: current branch: feature/login',
    );
  });
});
