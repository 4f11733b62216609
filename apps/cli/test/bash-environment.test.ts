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

describe("bash's environment in troupe run (issue #21: an allow-list, plus the user's bashPassEnv)", () => {
  it('a command sees the variables the user names, never the others, and never what an untrusted project names', async () => {
    server = await startCommandRunningClaude();
    const home = tempDir('home');
    mkdirSync(join(home, '.troupe'), { recursive: true });
    writeFileSync(join(home, '.troupe', 'config.json'), JSON.stringify({ bashPassEnv: ['JAVA_HOME'] }));
    const project = fixtureProject();
    mkdirSync(join(project, '.troupe'), { recursive: true });
    writeFileSync(join(project, '.troupe', 'config.json'), JSON.stringify({ bashPassEnv: ['GH_PAT'] }));
    const env = cleanEnv(home, {
      ...fakeEnv(server),
      JAVA_HOME: '/opt/jdk-21',
      GH_PAT: 'ghp_abcdefghijklmnopqrstuvwxyz0123456789',
      DATABASE_URL: 'postgres://app:hunter22@db/app',
    });
    const command = 'echo "java=[$JAVA_HOME] pat=[$GH_PAT] db=[$DATABASE_URL]"';
    const run = await runCli(['run', '--approval', 'auto', command], { cwd: project, env });
    expect(run.stdout).toContain('java=[/opt/jdk-21] pat=[] db=[]');
    expect(run.stderr).toContain('pass $GH_PAT to every bash command (bashPassEnv)');
    const trusted = await runCli(['run', '--approval', 'auto', '--trust-project', command], {
      cwd: project,
      env,
    });
    expect(trusted.stdout).toContain(
      'java=[/opt/jdk-21] pat=[ghp_abcdefghijklmnopqrstuvwxyz0123456789] db=[]',
    );
  }, 90_000);
});
