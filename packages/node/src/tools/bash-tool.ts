import { defineTool, type Tool, ToolError } from '@troupe/core';
import * as v from 'valibot';
import { bashEnvironment } from './bash-environment.js';
import {
  type NodeToolsContext,
  type NodeToolsOptions,
  resolveNodeToolsOptions,
} from './node-tools-options.js';
import { runInProcessGroup } from './process-group.js';

const bashInput = v.object({
  command: v.pipe(v.string(), v.minLength(1), v.description('The shell command to run (bash syntax).')),
  timeout: v.optional(
    v.pipe(
      v.number(),
      v.integer(),
      v.minValue(1),
      v.description('Timeout in milliseconds for this command.'),
    ),
  ),
  description: v.optional(
    v.pipe(v.string(), v.description('A few words saying what the command does, shown to the user.')),
  ),
});

/** Input of the `bash` tool. */
export type BashInput = v.InferOutput<typeof bashInput>;

/**
 * The `bash` tool (access `execute`): runs a command with `bash -c` in the workspace root and
 * returns stdout and stderr together plus the exit code. Its environment is built from an
 * allow-list (`PATH`, `HOME`, `LANG`, `TERM`, ...; see `bashPassEnv` and `bashEnv`). The command
 * runs in its own process group, and in a cgroup of its own where one can be made (`bashCgroup`);
 * on timeout or cancellation the whole group is killed, and when the call ends nothing it started
 * outlives it (without a cgroup, a job that leaves the session and clears its environment can).
 * Long output keeps its start and end with a note on what was cut.
 */
export function createBashTool(options: NodeToolsOptions | NodeToolsContext): Tool<BashInput> {
  const context = resolveNodeToolsOptions(options);
  const { workspace } = context;
  const seconds = (ms: number) => `${Math.round(ms / 1000)} s`;
  return defineTool({
    name: 'bash',
    access: 'execute',
    description:
      'Runs a shell command with bash in the workspace root directory and returns its combined stdout and ' +
      `stderr and its exit code. Default timeout ${seconds(context.bashTimeoutMs)}, at most ` +
      `${seconds(context.bashMaxTimeoutMs)} (timeout is in milliseconds). There is no stdin: commands must not ` +
      'wait for input. Processes started in the background are stopped when the command ends. Each call runs in ' +
      'a fresh shell (cd and exports do not carry over). Prefer read, glob, grep and edit over cat, find, grep ' +
      'and sed. Output longer than ' +
      `${context.maxOutputChars.toLocaleString('en-US')} characters keeps its start and end.`,
    input: bashInput,
    async execute({ command, timeout }, { signal }) {
      if (timeout !== undefined && timeout > context.bashMaxTimeoutMs) {
        throw new ToolError(
          'TOOL_FAILED',
          'bash',
          `timeout ${timeout} ms is above the maximum of ${context.bashMaxTimeoutMs} ms: ask for less.`,
          { details: { timeout } },
        );
      }
      const timeoutMs = timeout ?? context.bashTimeoutMs;
      let result: Awaited<ReturnType<typeof runInProcessGroup>>;
      try {
        result = await runInProcessGroup({
          shell: context.shell,
          command,
          cwd: workspace.realRoot,
          env: context.bashEnv ?? bashEnvironment(context.bashPassEnv),
          timeoutMs,
          killGraceMs: context.bashKillGraceMs,
          maxOutputChars: context.maxOutputChars,
          signal,
          useCgroup: context.bashCgroup,
        });
      } catch (cause) {
        throw new ToolError(
          'TOOL_FAILED',
          'bash',
          `Could not start "${context.shell}": ${(cause as Error).message}.`,
          {
            cause,
          },
        );
      }
      const output = result.output.trimEnd().length > 0 ? result.output.trimEnd() : '(no output)';
      if (result.aborted) {
        throw new ToolError(
          'ABORTED',
          'bash',
          `The command was cancelled and its processes were killed.\n${output}`,
        );
      }
      if (result.timedOut) {
        throw new ToolError(
          'TOOL_FAILED',
          'bash',
          `The command timed out after ${timeoutMs} ms and its processes were killed. Output so far:\n${output}`,
          { details: { timeoutMs } },
        );
      }
      const status =
        result.exitCode !== null
          ? `Exit code: ${result.exitCode}`
          : `Killed by signal ${result.exitSignal ?? 'unknown'}`;
      return `${output}\n[${status}]`;
    },
  });
}
