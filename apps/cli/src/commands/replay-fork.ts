import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { type ForkAgentEdit, parseAgentFile, type TaskStore } from '@troupe/core';
import { CliError, UsageError } from '../errors.js';
import { exitCodeFor } from '../exit-codes.js';
import { attachDeskIfAsking } from '../interactive/approval-desk.js';
import { Terminal } from '../interactive/terminal.js';
import { type CliContext, isInteractive } from '../io.js';
import { createCliRuntime, loadCliSettings, loadCliSetup } from '../setup/cli-runtime.js';
import { showMcpWarnings } from '../setup/mcp.js';

/**
 * `troupe replay ID --fork-at STEP [--agent FILE]`: a new task from step STEP of a stored task (the
 * step numbers `troupe replay ID` prints and the inspector shows), run live with the CLI's model,
 * tools and approvals. `--agent FILE` edits the agent: the file's system prompt, and its tools and
 * model when it names them. The answer goes to stdout, progress to stderr; the exit code follows
 * the fork's terminate reason. The original task is not touched.
 */
export async function forkStored(
  context: CliContext,
  store: TaskStore,
  taskId: string,
  step: number,
): Promise<number> {
  const { options } = context.line;
  const agent = options.agent ? await agentEdit(context, options.agent) : undefined;
  const settings = await loadCliSettings(context, { interactive: isInteractive(context) });
  const setup = await loadCliSetup(context, settings);
  const approval = settings.approvalChoice;
  const terminal = new Terminal({ io: context, out: context.stderr, input: approval.mode === 'ask' });
  for (const notice of setup.mcp.notices) terminal.log(terminal.colors.yellow(notice));
  if (approval.notice) terminal.log(terminal.colors.yellow(approval.notice));
  const runtime = createCliRuntime(setup, { store });
  showMcpWarnings(runtime, (text) => terminal.log(terminal.colors.yellow(text)));
  const detachDesk = attachDeskIfAsking(runtime, terminal, approval.mode);
  let cancel = () => {};
  const offSignals = [
    context.onSignal('SIGINT', () => cancel()),
    context.onSignal('SIGTERM', () => cancel()),
  ];
  try {
    const handle = await runtime
      .fork(taskId, { atStep: step, ...(agent ? { agent } : {}) })
      .catch((error) => {
        throw new CliError(`Cannot fork task ${taskId} at step ${step}: ${(error as Error).message}`);
      });
    cancel = () => runtime.cancel(handle.id, 'Interrupted by the user.');
    context.stdout.write(
      `${terminal.colors.bold(`Forked ${taskId} at step ${step}`)} → new task ${handle.id}${agent ? ` (agent edited from ${options.agent})` : ''}\n`,
    );
    terminal.track(runtime, { sessionKey: runtime.get(handle.id)?.sessionKey ?? 'default' });
    const result = await handle.result;
    await runtime.shutdown();
    terminal.close();
    const text = typeof result.output === 'string' ? result.output : JSON.stringify(result.output, null, 2);
    if (text) context.stdout.write(`${text.trimEnd()}\n`);
    if (result.status !== 'completed')
      context.stderr.write(
        `troupe: the fork ${result.status === 'cancelled' ? 'was cancelled' : 'failed'} (${result.terminateReason})${result.error ? `: ${result.error.message}` : ''}\n`,
      );
    context.stdout.write(`Replay it with: troupe replay ${handle.id}\n`);
    return exitCodeFor(result.terminateReason);
  } finally {
    for (const off of offSignals) off();
    detachDesk();
    terminal.close();
    await runtime.shutdown();
    await setup.mcp.close();
  }
}

/** `--fork-at STEP`: a whole number from 1. */
export function forkStep(value: string): number {
  const step = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isInteger(step) || step < 1)
    throw new UsageError(
      `--fork-at must be a step number from 1 (the step column of \`troupe replay ID\`), not "${value}".`,
    );
  return step;
}

/** The agent edit an agent file gives: its system prompt, and its tools and model when it names them. */
async function agentEdit(context: CliContext, file: string): Promise<ForkAgentEdit> {
  const path = resolve(context.cwd, file);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new UsageError(`--agent ${file}: cannot read the agent file (${(error as Error).message}).`);
  }
  const { definition, warnings } = parseAgentFile(text, { path });
  for (const warning of warnings) context.stderr.write(`troupe: warning: ${path}: ${warning.message}\n`);
  const edit: ForkAgentEdit = { systemPrompt: definition.systemPrompt };
  if (definition.tools) edit.tools = definition.tools;
  if (definition.disallowedTools) edit.disallowedTools = definition.disallowedTools;
  if (definition.model) edit.model = definition.model;
  return edit;
}
