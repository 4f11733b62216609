import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type FakeAnthropicServer,
  lastUserText,
  textStep,
  toolResultsOf,
  toolStep,
} from '../../../test/fake-anthropic/index.js';
import { cleanEnv, fixtureProject, runCli, tempDir } from './helpers/cli.js';
import { fakeEnv, startFakeClaude } from './helpers/fake-claude.js';

let server: FakeAnthropicServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A home whose user settings deny `git push`, and a `git` on PATH that logs what it was asked to do. */
function setup(): { home: string; log: string; path: string } {
  const home = tempDir('home');
  mkdirSync(join(home, '.troupe'), { recursive: true });
  writeFileSync(
    join(home, '.troupe', 'settings.json'),
    JSON.stringify({ permissions: { deny: ['Bash(git push:*)'] } }),
  );
  const bin = tempDir('bin');
  const log = join(bin, 'git.log');
  writeFileSync(join(bin, 'git'), `#!/bin/sh\necho "$*" >> '${log}'\necho "git ran: $*"\n`);
  chmodSync(join(bin, 'git'), 0o755);
  return { home, log, path: `${bin}:${process.env.PATH ?? ''}` };
}

describe('troupe run --approval auto with a deny rule in the user settings (issue #21)', () => {
  it('refuses `true && git push origin main` and other spellings, and runs what the rule does not cover', async () => {
    // The model runs, as a bash command, whatever the prompt says.
    server = await startFakeClaude((request) => {
      const results = toolResultsOf(request);
      if (results.length) return textStep(`Result: ${results[0]!.content}`);
      return toolStep('bash', { command: lastUserText(request) });
    });
    const { home, log, path } = setup();
    const env = cleanEnv(home, { ...fakeEnv(server), PATH: path });
    const project = fixtureProject();

    for (const command of ['true && git push origin main', "GIT_TRACE=0 bash -c '/usr/bin/env git push'"]) {
      const run = await runCli(['run', '--approval', 'auto', command], { cwd: project, env });
      expect(run.stdout).toMatch(/Result: .*the permission rule Bash\(git push:\*\) denies it/);
      expect(existsSync(log)).toBe(false);
    }

    // The same fake git runs when the rule does not cover the command.
    const allowed = await runCli(['run', '--approval', 'auto', 'true && git status'], { cwd: project, env });
    expect(allowed.stdout).toContain('git ran: status');
    expect(readFileSync(log, 'utf8')).toBe('status\n');
  }, 90_000);
});
