// Issue #14, items 8 and 9: a bash command cannot read troupe's credentials through its parent's
// environment, gets no credential-looking variable by default, and leaves no background job behind.
import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createBashTool } from '@troupe/node';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSandbox, outcome, type Sandbox, toolContext } from './helpers.js';

const here = dirname(fileURLToPath(import.meta.url));
let sandbox: Sandbox;
const saved = { ...process.env };
beforeEach(async () => {
  sandbox = await createSandbox();
  process.env.ANTHROPIC_API_KEY = 'sk-ant-leak-me';
  process.env.OPENAI_API_KEY = 'sk-openai-leak-me';
  process.env.AWS_SECRET_ACCESS_KEY = 'aws-leak-me';
  process.env.GITHUB_TOKEN = 'ghp-leak-me';
  process.env.TROUPE_HARMLESS = 'visible';
});
afterEach(async () => {
  for (const name of [
    'ANTHROPIC_API_KEY',
    'OPENAI_API_KEY',
    'AWS_SECRET_ACCESS_KEY',
    'GITHUB_TOKEN',
    'TROUPE_HARMLESS',
  ])
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  await sandbox.cleanup();
});

describe('bash secrets', () => {
  it('credential-looking variables are not passed to commands by default', async () => {
    const bash = createBashTool({ root: sandbox.root });
    const text = await outcome(() => bash.execute({ command: 'env' }, toolContext()));
    // The environment is an allow-list (issue #21): a variable that is not on it needs bashPassEnv.
    expect(text).not.toContain('TROUPE_HARMLESS');
    expect(text).not.toMatch(/leak-me/);
    const passing = createBashTool({ root: sandbox.root, bashPassEnv: ['TROUPE_HARMLESS'] });
    expect(await outcome(() => passing.execute({ command: 'env' }, toolContext()))).toContain(
      'TROUPE_HARMLESS=visible',
    );
  });

  it("/proc/$PPID/environ (the command's parent) holds no secret", () => {
    // The secret must be in the initial environment of the process running the tool.
    const text = execFileSync(
      process.execPath,
      [
        '--conditions=source',
        '--import',
        'tsx',
        join(here, 'bash-child.ts'),
        sandbox.root,
        "tr '\\0' '\\n' < /proc/$PPID/environ",
      ],
      { cwd: here, encoding: 'utf8', env: { ...process.env, ANTHROPIC_API_KEY: 'sk-ant-leak-me' } },
    );
    expect(text).toContain('PATH=');
    expect(text).not.toMatch(/leak-me/);
  });
});

describe('bash background jobs', () => {
  it('a job detached with nohup setsid -f does not outlive the call', async () => {
    const bash = createBashTool({ root: sandbox.root, bashKillGraceMs: 200 });
    const marker = `troupe-escape-${process.pid}-${Date.now()}`;
    await outcome(() =>
      bash.execute(
        { command: `nohup setsid -f bash -c 'exec -a ${marker} sleep 123' >/dev/null 2>&1` },
        toolContext(),
      ),
    );
    const alive = () => {
      try {
        return execFileSync('pgrep', ['-f', marker], { encoding: 'utf8' }).trim();
      } catch {
        return '';
      }
    };
    const left = alive();
    if (left) execFileSync('kill', ['-9', ...left.split('\n')]);
    expect(left).toBe('');
  });
});
