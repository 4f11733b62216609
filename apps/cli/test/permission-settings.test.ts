import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { FakeAnthropicServer } from '../../../test/fake-anthropic/index.js';
import { cleanEnv, fixtureProject, runCli, tempDir } from './helpers/cli.js';
import { fakeEnv, startCommandRunningClaude } from './helpers/fake-claude.js';

let server: FakeAnthropicServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

function projectWith(settings: unknown): string {
  const project = fixtureProject();
  mkdirSync(join(project, '.troupe'), { recursive: true });
  writeFileSync(join(project, '.troupe', 'settings.json'), JSON.stringify(settings));
  return project;
}

describe('permission rules in .troupe/settings.json, honoured by the runtime', () => {
  it('troupe run (no one to ask) runs an allowed command of a trusted project and refuses a denied one', async () => {
    server = await startCommandRunningClaude((prompt) => `echo ${prompt}`);
    const project = projectWith({
      permissions: { allow: ['Bash(echo hi:*)'], deny: ['Bash(echo secret:*)'] },
    });
    const env = cleanEnv(tempDir('home'), fakeEnv(server));
    const allowed = await runCli(['run', '--trust-project', 'hi there'], { cwd: project, env });
    expect(allowed.stdout).toContain('Result: hi there');
    // The project's deny rules hold without trust: they only narrow.
    const denied = await runCli(['run', '--approval', 'auto', 'secret stuff'], { cwd: project, env });
    expect(denied.stdout).toMatch(/Result: .*the permission rule Bash\(echo secret:\*\) denies it/);
  }, 40_000);

  it('a bad rule is one line naming the file and the field (exit 1)', async () => {
    const project = projectWith({ permissions: { allow: ['Bash(echo hi:*)', 'Bash(oops'] } });
    const run = await runCli(['run', 'x'], {
      cwd: project,
      env: cleanEnv(tempDir('home'), {
        ANTHROPIC_API_KEY: 'sk-ant-unused',
        ANTHROPIC_BASE_URL: 'http://127.0.0.1:9',
      }),
    });
    expect(run.code).toBe(1);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toContain(
      `${join(project, '.troupe', 'settings.json')}: permissions.allow[1]: Permission rule "Bash(oops" is not valid`,
    );
  });
});
