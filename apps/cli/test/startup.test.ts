import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cleanEnv, cliArgs, fixtureProject, tempDir } from './helpers/cli.js';

const preload = fileURLToPath(new URL('./helpers/module-log.mjs', import.meta.url));

/** Runs troupe with a module log; returns the exit code, stdout and every module URL resolved. */
function withModuleLog(args: string[]): { code: number | null; stdout: string; modules: string[] } {
  const log = join(tempDir('modules'), 'modules.log');
  const [conditions, importFlag, tsx, ...rest] = cliArgs(args);
  const result = spawnSync(process.execPath, [conditions!, importFlag!, tsx!, '--import', preload, ...rest], {
    cwd: fixtureProject(),
    env: cleanEnv(tempDir('home'), { MODULE_LOG: log }),
    encoding: 'utf8',
  });
  return { code: result.status, stdout: result.stdout, modules: readFileSync(log, 'utf8').split('\n') };
}

const heavy = (url: string) => /\/xstate\/|@anthropic-ai\/sdk|\/packages\/(core|node|anthropic)\//.test(url);

describe('startup', () => {
  it('--help loads neither the runtime, xstate, nor the Anthropic SDK', () => {
    const run = withModuleLog(['--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Usage:');
    expect(run.modules.some((url) => url.endsWith('/apps/cli/src/main.ts'))).toBe(true);
    expect(run.modules.filter(heavy)).toEqual([]);
  });

  it('a command that needs the runtime does load it (the check above can fail)', () => {
    const run = withModuleLog(['agents', 'list']);
    expect(run.code).toBe(0);
    expect(run.modules.some((url) => /\/xstate\//.test(url))).toBe(true);
    expect(run.modules.some((url) => /@anthropic-ai\/sdk/.test(url))).toBe(false);
  });

  it('prints help for a command, and the version', () => {
    const help = withModuleLog(['run', '--help']);
    expect(help.stdout).toContain('Usage: troupe run [options] PROMPT');
    expect(help.stdout).toContain(
      'Exit codes: 0 GOAL, 2 usage error, 3 MAX_TURNS, 4 TIMEOUT, 5 TOKEN_LIMIT, 6 ERROR, 130 ABORTED.',
    );
    const version = withModuleLog(['--version']);
    expect(version.stdout).toMatch(/^troupe \d+\.\d+\.\d+\n$/);
  });
});
