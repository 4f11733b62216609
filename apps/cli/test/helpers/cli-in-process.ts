import { beforeAll } from 'vitest';
import { main } from '../../src/main.js';
import { BIN, type CliRun } from './cli.js';
import { capturedIo } from './stored-tasks.js';

// `main` imports the command it runs on first use: the CLI, the runtime, the SDK and the tools,
// transformed from source. Loaded here before the file's tests, so that cost (seconds on a
// loaded machine) is not counted against the first test's time limit.
beforeAll(async () => {
  await Promise.all([
    import('../../src/commands/run.js'),
    import('../../src/commands/agents.js'),
    import('../../src/commands/interactive.js'),
    import('../../src/commands/mcp.js'),
    import('../../src/commands/replay.js'),
  ]);
}, 180_000);

/**
 * Runs `troupe ARGS` in this process: the CLI's `main` with the same arguments, working
 * directory, environment and HOME that {@link runCli} gives a child process, stdin the given
 * input (not a terminal) and stdout and stderr captured (not terminals). Resolves to what `main`
 * returned (the exit code the `troupe` executable exits with) and what it wrote.
 *
 * For tests of what the CLI says and which code it returns: a child process costs about two
 * seconds of start-up, this a few milliseconds after the first call. Tests of the process itself
 * (signals, how it exits, what it loads at start, detached runs, terminals) keep `runCli` or tmux.
 * Do not use it for commands that read the process's own state rather than the CLI's io (the
 * temporary folder of `troupe demo`) or that leave work running after they return.
 */
export async function runCliInProcess(
  args: readonly string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; input?: string },
): Promise<CliRun> {
  const home = options.env.HOME;
  if (!home) throw new Error('runCliInProcess: the environment has no HOME (use cleanEnv)');
  const { io, output } = capturedIo({ env: options.env, cwd: options.cwd, home, script: BIN }, options.input);
  const code = await main(args, io);
  return { code, ...output() };
}
