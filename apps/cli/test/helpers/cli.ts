import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll } from 'vitest';
import { type Finished, runToEnd, unfinished } from '../../../../test/helpers/run-to-end.js';

const here = fileURLToPath(new URL('.', import.meta.url));
/** The CLI's source entry (tests run the source, so no build is needed). */
export const BIN = join(here, '..', '..', 'src', 'bin.ts');
const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

/** `node` arguments that run the CLI from source: workspace packages resolve to their `src/`. */
export function cliArgs(args: readonly string[]): string[] {
  return ['--conditions=source', '--import', TSX, BIN, ...args];
}

/** The command line (for tmux) that runs `troupe ARGS` from source. */
export function cliCommandLine(args: readonly string[]): string {
  return [process.execPath, ...cliArgs(args)].map(shellQuote).join(' ');
}

/** Quotes a word for sh. */
export function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** What a finished CLI process printed. */
export type CliRun = Finished;

/**
 * An environment without the caller's Anthropic settings, with HOME set, colours allowed and
 * TMPDIR a folder of this test file (what the CLI puts in the temporary folder, such as the demo's
 * task store, is removed with it).
 */
export function cleanEnv(home: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, TMPDIR: cliTempDir(), ...extra };
  for (const key of [
    'ANTHROPIC_API_KEY',
    'ANTHROPIC_AUTH_TOKEN',
    'ANTHROPIC_BASE_URL',
    'NO_COLOR',
    'FORCE_COLOR',
  ]) {
    if (!(key in extra)) delete env[key];
  }
  return env;
}

/** Runs `troupe ARGS` as a child process with piped stdio (stdin: `input`, then closed); resolves when it exits. */
export function runCli(
  args: readonly string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; input?: string },
): Promise<CliRun> {
  return runToEnd(process.execPath, cliArgs(args), { ...options, input: options.input ?? '' });
}

const made: string[] = [];

// Each test file gets its own copy of this module, so this removes the folders of that file once
// its tests are done (a run left ~200 troupe-cli-* folders in the temporary folder).
afterAll(() => {
  // A CLI process whose test timed out is still running: it must not outlive the test file.
  for (const child of unfinished) child.kill('SIGKILL');
  for (const dir of made.splice(0)) {
    try {
      rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
    } catch (error) {
      console.warn(`could not remove the temporary folder ${dir}: ${(error as Error).message}`);
    }
  }
});

/** A fresh temporary folder, removed after the test file's tests have run. */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), `troupe-cli-${prefix}-`));
  made.push(dir);
  return dir;
}

/**
 * tsx's compile cache: `tsx-<uid>` in the temporary folder. tsx finds it through `TMPDIR`, so a CLI
 * process given a fresh `TMPDIR` would compile the whole CLI from source again (about a second of
 * CPU per process).
 */
const TSX_CACHE = `tsx-${process.geteuid?.() ?? userInfo().username}`;

/**
 * A fresh temporary folder for a CLI process's `TMPDIR` (removed after the test file, as
 * {@link tempDir}), holding only a link to the test run's tsx compile cache: what the CLI puts
 * in its temporary folder stays apart, while each process reuses what the others compiled.
 */
export function cliTempDir(): string {
  const dir = tempDir('tmp');
  const shared = join(tmpdir(), TSX_CACHE);
  mkdirSync(shared, { recursive: true });
  symlinkSync(shared, join(dir, TSX_CACHE), 'dir');
  return dir;
}

/** A temporary copy of the small project in test/fixtures/project. */
export function fixtureProject(): string {
  const dir = tempDir('project');
  cpSync(join(here, '..', 'fixtures', 'project'), dir, { recursive: true });
  return dir;
}
