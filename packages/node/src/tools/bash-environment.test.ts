// Issue #21, item 7: the bash tool's environment was this process's minus credential-looking
// names, and `DATABASE_URL`, `GH_PAT`, `AWS_SECRET_ACCESS_KEY_ID2` went through. It is now built
// from an allow-list plus what the host names.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestWorkspace, type TestWorkspace, toolContext } from '../../test/helpers/workspace.js';
import { createBashTool } from './bash-tool.js';

const PLANTED: Record<string, string> = {
  DATABASE_URL: 'postgres://app:hunter2@db.internal/app',
  GH_PAT: 'ghp_planted_pat',
  AWS_SECRET_ACCESS_KEY_ID2: 'aws-planted-2',
  ANTHROPIC_API_KEY: 'sk-ant-planted',
  SOME_SERVICE_URL: 'https://user:pass@example.test',
  MY_APP_CONFIG: 'planted-config',
};

let ws: TestWorkspace;
const saved: Record<string, string | undefined> = {};
beforeEach(async () => {
  ws = await createTestWorkspace();
  for (const [name, value] of Object.entries(PLANTED)) {
    saved[name] = process.env[name];
    process.env[name] = value;
  }
});
afterEach(async () => {
  for (const name of Object.keys(PLANTED)) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
  await ws.cleanup();
});

async function environmentOf(options: Parameters<typeof createBashTool>[0]): Promise<Map<string, string>> {
  const text = String(await createBashTool(options).execute({ command: 'env -0' }, toolContext()));
  const entries = text.replace(/\n\[Exit code: 0\]$/, '').split('\0');
  return new Map(
    entries
      .filter((entry) => entry.includes('='))
      .map((entry) => [entry.slice(0, entry.indexOf('=')), entry.slice(entry.indexOf('=') + 1)]),
  );
}

describe('bash environment', () => {
  it.each(Object.keys(PLANTED))('does not pass %s by default', async (name) => {
    const environment = await environmentOf({ root: ws.root });
    expect(environment.has(name), `${name} reached the command`).toBe(false);
    for (const value of environment.values()) expect(value).not.toBe(PLANTED[name]);
  });

  it('passes the allow-listed basics (PATH, HOME, LANG, TERM) from this process', async () => {
    const environment = await environmentOf({ root: ws.root });
    expect(environment.get('PATH')).toBe(process.env.PATH);
    if (process.env.HOME !== undefined) expect(environment.get('HOME')).toBe(process.env.HOME);
    const names = [...environment.keys()].filter(
      (name) => !['PWD', 'SHLVL', '_', 'TROUPE_BASH_JOB'].includes(name),
    );
    const allowed =
      /^(PATH|HOME|USER|LOGNAME|SHELL|LANG|LANGUAGE|LC_[A-Z_]+|TERM|COLORTERM|NO_COLOR|TZ|TMPDIR|TMP|TEMP)$/;
    expect(names.filter((name) => !allowed.test(name))).toEqual([]);
  });

  it('passes a variable the host names in bashPassEnv', async () => {
    const environment = await environmentOf({
      root: ws.root,
      bashPassEnv: ['DATABASE_URL', 'MY_APP_CONFIG'],
    });
    expect(environment.get('DATABASE_URL')).toBe(PLANTED.DATABASE_URL);
    expect(environment.get('MY_APP_CONFIG')).toBe(PLANTED.MY_APP_CONFIG);
    expect(environment.has('GH_PAT')).toBe(false);
  });
});
