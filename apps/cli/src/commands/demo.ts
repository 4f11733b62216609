import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SessionMessage } from '@troupe/core';
import { createNodeTools, loadAgentDirectories } from '@troupe/node';
import { createDemoModel } from '../demo/demo-model.js';
import { CANCELLED_TASK, DEMO_TASKS } from '../demo/demo-tasks.js';
import { DEMO_REQUEST } from '../demo/main-script.js';
import { demoSummary } from '../demo/summary.js';
import { CliError, UsageError } from '../errors.js';
import { EXIT } from '../exit-codes.js';
import { attachApprovalDesk } from '../interactive/approval-desk.js';
import { Terminal } from '../interactive/terminal.js';
import { type CliContext, isInteractive } from '../io.js';
import { createCliRuntime } from '../setup/cli-runtime.js';

/**
 * `troupe demo`: a real session over the current directory with the real Node tools and a
 * scripted model: seven background sub-agents (five at a time, two queued), one approval, one
 * cancellation, live progress, then the tasks read back from a temporary file store.
 */
export async function demoCommand(context: CliContext): Promise<number> {
  if (context.line.args.length) throw new UsageError('troupe demo takes no arguments.');
  const interactive = isInteractive(context);
  const flag = context.line.options.approval;
  const approvals =
    flag === 'deny' ? 'deny' : flag === 'auto' || (!flag && !interactive) ? 'auto-announced' : 'ask';
  const base = await mkdtemp(join(tmpdir(), 'troupe-demo-'));
  const dir = join(base, 'tasks');
  // Only the built-in agents: the demo's script is written for them, whatever the project defines.
  const registry = await loadAgentDirectories({ cwd: base, home: base });
  // No config file, no permission rules, no MCP: the demo is the same everywhere.
  const runtime = createCliRuntime({
    model: createDemoModel({ pace: interactive ? 1 : 0.02 }),
    models: { default: 'claude-sonnet-5-5', small: 'claude-haiku-5-5' },
    registry,
    tools: createNodeTools({
      root: context.cwd,
      globSort: 'name',
      ignoreDirectories: ['.git', 'node_modules', 'dist'],
    }),
    limits: { maxConcurrent: 5 },
    approval: approvals === 'deny' ? 'deny' : 'ask',
    storeDir: dir,
  });
  const terminal = new Terminal({ io: context, out: context.stdout, input: approvals === 'ask' });
  const { colors } = terminal;
  const session = runtime.createSession({ sessionKey: 'demo' });
  terminal.log(
    [
      `${colors.bold('troupe demo')} — offline: a scripted model stands in for Claude; the tools are real.`,
      colors.dim(
        `Workspace: ${context.cwd} (read, glob, grep, ls; bash after approval). Nothing is written here.`,
      ),
      colors.dim(`Task store: ${dir}`),
      '',
      `${colors.bold('you>')} ${DEMO_REQUEST}`,
    ].join('\n'),
  );
  terminal.track(runtime, { sessionKey: 'demo', mainBusy: () => session.isBusy });
  const detachDesk = attachApprovalDesk({
    runtime,
    prompter: terminal.prompter,
    colors,
    log: (text) => terminal.log(text),
    mode: approvals === 'ask' ? 'ask' : 'auto-announced',
    autoReason: flag === 'auto' ? '--approval auto' : 'not a terminal, so the demo approves it for you',
  });
  let cancelledOne = false;
  runtime.on('tool.finished', (event) => {
    if (cancelledOne || event.description !== CANCELLED_TASK.description) return;
    cancelledOne = true;
    terminal.log(
      colors.yellow(`demo> cancelling [${event.agent}] ${event.description} to show cancellation`),
    );
    runtime.cancel(event.taskId, 'Cancelled by the demo to show cancellation.');
  });
  const replies: SessionMessage[] = [];
  let allReplies!: () => void;
  const repliesDone = new Promise<void>((resolve) => {
    allReplies = resolve;
  });
  session.on('message', (message) => {
    if (message.kind !== 'reply') return;
    replies.push(message);
    terminal.log(`${colors.bold(colors.magenta('main>'))} ${message.text}`);
    // One reply to the request, then one per background result.
    if (replies.length === DEMO_TASKS.length + 1) allReplies();
  });
  let interrupted = false;
  const stop = () => {
    interrupted = true;
    session.interrupt();
    runtime.cancelSession('demo', 'The demo was interrupted.');
    allReplies();
  };
  const offSignal = context.onSignal('SIGINT', stop);
  terminal.rl?.on('SIGINT', stop);
  try {
    await session.send(DEMO_REQUEST);
    await repliesDone;
  } finally {
    offSignal();
    detachDesk();
    session.close();
    await runtime.shutdown();
    terminal.close();
  }
  if (interrupted) {
    context.stdout.write(`Demo interrupted. Tasks so far are in ${dir}.\n`);
    return EXIT.aborted;
  }
  const { lines, tasks } = await demoSummary(dir, colors);
  context.stdout.write(`\n${lines.join('\n')}\n`);
  const failedReply = replies.find((reply) => reply.result?.status !== 'completed');
  if (failedReply || tasks.length !== DEMO_TASKS.length) {
    throw new CliError(
      `The demo did not go as planned: ${failedReply ? `the main agent stopped (${failedReply.result?.error?.message ?? failedReply.result?.terminateReason})` : `${tasks.length} of ${DEMO_TASKS.length} tasks were persisted`}.`,
    );
  }
  return EXIT.ok;
}
