import {
  type AgentRegistry,
  createTaskId,
  FINAL_TASK_EVENTS,
  type Runtime,
  type TaskResult,
} from '@troupe/core';
import { UsageError } from '../errors.js';
import { EXIT, exitCodeFor } from '../exit-codes.js';
import { attachDeskIfAsking } from '../interactive/approval-desk.js';
import { Terminal } from '../interactive/terminal.js';
import { type CliContext, isInteractive } from '../io.js';
import { agentNotices } from '../setup/agents.js';
import { createCliRuntime, loadCliSettings, loadCliSetup } from '../setup/cli-runtime.js';
import { showMcpWarnings } from '../setup/mcp.js';
import { registerRun } from '../setup/run-registry.js';
import { startDetached } from './run-detached.js';
import { resultJson } from './run-output.js';

async function readStdin(stdin: NodeJS.ReadableStream): Promise<string> {
  let text = '';
  stdin.setEncoding('utf8');
  for await (const chunk of stdin) text += chunk;
  return text;
}

/**
 * `troupe run [--agent NAME] [--background] [--json] PROMPT`: one prompt, headless. The answer
 * (or JSON) goes to stdout, progress to stderr; the exit code follows the terminate reason.
 */
export async function runCommand(context: CliContext): Promise<number> {
  const { line } = context;
  const options = line.options;
  let prompt = line.args.join(' ').trim();
  let stdinUsed = false;
  if (!prompt && context.stdin.isTTY !== true && !options.taskId) {
    prompt = (await readStdin(context.stdin)).trim();
    stdinUsed = true;
  }
  if (!prompt) throw new UsageError('troupe run needs a PROMPT (as arguments, or on stdin).');
  const settings = await loadCliSettings(context, {
    interactive: isInteractive(context) && !options.taskId,
  });
  const { registry, config, storeDir: dir, approvalChoice: approval } = settings;
  const agent = options.agent ? registry.require(options.agent).name : undefined;
  if (options.background && !options.taskId) {
    const chosen = options.approval ?? config.approval;
    const started = startDetached(context, {
      prompt,
      agent: agent ?? 'general-purpose',
      storeDir: dir,
      ...(chosen ? { approval: chosen === 'ask' ? 'deny' : chosen } : {}),
    });
    if (options.json)
      context.stdout.write(
        `${JSON.stringify({ taskId: started.taskId, status: 'started', pid: started.pid })}\n`,
      );
    else {
      context.stdout.write(
        `Started task ${started.taskId} in the background${agent ? '' : ' (agent general-purpose)'}.\nFollow it with: troupe tasks show ${started.taskId}${options.store ? ` --store ${dir}` : ''}\n`,
      );
      if (!chosen || chosen === 'ask')
        context.stderr.write(
          'Nobody can answer approvals in the background: write and execute tools will be denied (pass --approval auto to allow them).\n',
        );
    }
    return EXIT.ok;
  }
  if (approval.mode === 'ask' && stdinUsed)
    throw new UsageError('Cannot ask for approvals: stdin held the prompt. Pass --approval auto or deny.');

  let notify: (notice: string) => void = () => {};
  const setup = await loadCliSetup(context, settings, { onRetry: (notice) => notify(notice) });
  const { mcp, tools } = setup;
  const terminal = new Terminal({ io: context, out: context.stderr, input: approval.mode === 'ask' });
  notify = (notice) => terminal.log(terminal.colors.yellow(notice));
  for (const notice of await agentNotices(registry, tools)) terminal.log(terminal.colors.yellow(notice));
  for (const notice of mcp.notices) terminal.log(terminal.colors.yellow(notice));
  if (approval.notice) terminal.log(terminal.colors.yellow(approval.notice));
  const inspection =
    options.inspect || options.stately
      ? await (await import('../setup/inspection.js')).startLiveInspection(
          context,
          options,
          context.stderr,
          dir,
        )
      : undefined;
  const taskId = options.taskId;
  const runtime = createCliRuntime(setup, {
    ...(inspection ? { inspect: inspection.inspect } : {}),
    ...(taskId ? { taskId } : {}),
  });
  inspection?.follow(runtime);
  const sessionKey = `run-${taskId ?? createTaskId().slice(2)}`;
  const unregisterTask = taskId ? registerRun(dir, taskId) : () => {};
  const unregisterSession = registerRun(dir, sessionKey);
  const unregister = () => {
    unregisterTask();
    unregisterSession();
  };
  const board = terminal.track(runtime, { sessionKey });
  terminal.trackTeams(runtime, board, { sessionKey });
  showMcpWarnings(runtime, (text) => terminal.log(terminal.colors.yellow(text)));
  const detachDesk = attachDeskIfAsking(runtime, terminal, approval.mode);
  let cancel: () => void = () => {};
  let interrupts = 0;
  const onInterrupt = () => {
    interrupts++;
    if (interrupts === 1) {
      terminal.log(terminal.colors.yellow('Cancelling… (Ctrl-C again to quit at once)'));
      cancel();
    } else {
      terminal.close();
      process.exit(EXIT.aborted);
    }
  };
  const offSignals = [context.onSignal('SIGINT', onInterrupt), context.onSignal('SIGTERM', () => cancel())];
  terminal.rl?.on('SIGINT', onInterrupt);
  try {
    const outcome = agent
      ? await runAgent(runtime, registry, agent, prompt, sessionKey, (fn) => {
          cancel = fn;
        })
      : await runMain(runtime, prompt, sessionKey, (fn) => {
          cancel = fn;
        });
    const tasks = runtime.list({ sessionKey }).reverse();
    await runtime.shutdown();
    terminal.close();
    const { result } = outcome;
    if (options.json) {
      context.stdout.write(
        `${JSON.stringify(resultJson(result, outcome.followUps, tasks, { sessionKey, stored: agent !== undefined }), null, 2)}\n`,
      );
    } else {
      const text = typeof result.output === 'string' ? result.output : JSON.stringify(result.output, null, 2);
      if (text) context.stdout.write(`${text.trimEnd()}\n`);
      for (const followUp of outcome.followUps) context.stdout.write(`\n${followUp.trimEnd()}\n`);
      if (result.status !== 'completed') {
        context.stderr.write(
          `troupe: the task ${result.status === 'cancelled' ? 'was cancelled' : 'failed'} (${result.terminateReason})${result.error ? `: ${result.error.message}` : ''}\n`,
        );
      }
    }
    return exitCodeFor(result.terminateReason);
  } finally {
    for (const off of offSignals) off();
    detachDesk();
    terminal.close();
    unregister();
    await runtime.shutdown();
    await mcp.close();
    await inspection?.close();
  }
}

interface Outcome {
  result: TaskResult;
  followUps: string[];
}

async function runAgent(
  runtime: Runtime,
  registry: AgentRegistry,
  agent: string,
  prompt: string,
  sessionKey: string,
  setCancel: (cancel: () => void) => void,
): Promise<Outcome> {
  const definition = registry.require(agent);
  const handle = runtime.spawn({ agent: definition.name, prompt, sessionKey });
  setCancel(() => runtime.cancel(handle.id, 'Interrupted by the user.'));
  return { result: await handle.result, followUps: [] };
}

/** The main agent answers; then background work it started (tasks, teams) is awaited and its summaries kept. */
async function runMain(
  runtime: Runtime,
  prompt: string,
  sessionKey: string,
  setCancel: (cancel: () => void) => void,
): Promise<Outcome> {
  const session = runtime.createSession({ sessionKey });
  let cancelled = false;
  let announcements = 0;
  const replies: string[] = [];
  let wake: () => void = () => {};
  // A team between two spells of its members runs no task, yet is not done: teams count until
  // their result is in (a background team's announcement follows it at once).
  const unsettled = new Set<string>();
  const followed = new Set<string>();
  const idle = () =>
    replies.length === 1 + announcements &&
    runtime.list({ sessionKey, active: true }).length === 0 &&
    unsettled.size === 0;
  const off = [
    session.on('message', (message) => {
      if (message.kind === 'announcement') announcements++;
      else replies.push(message.text);
      wake();
    }),
    ...FINAL_TASK_EVENTS.map((name) => runtime.on(name, () => wake())),
    runtime.on('team.event', ({ teamId, sessionKey: key }) => {
      const team = key === sessionKey && !followed.has(teamId) ? runtime.team(teamId) : undefined;
      if (!team) return;
      followed.add(teamId);
      unsettled.add(teamId);
      void team.result.then(() => {
        unsettled.delete(teamId);
        wake();
      });
    }),
  ];
  setCancel(() => {
    cancelled = true;
    session.interrupt();
    runtime.cancelSession(sessionKey, 'Interrupted by the user.');
  });
  const reply = await session.send(prompt);
  // Background tasks it started are announced into the session, which answers each: wait for all.
  for (;;) {
    while (!cancelled && !idle()) {
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
    }
    // What ended may still announce itself (a background team, once its result is in): look again
    // once pending callbacks have run.
    await new Promise<void>((resolve) => setImmediate(resolve));
    if (cancelled || idle()) break;
  }
  for (const unsubscribe of off) unsubscribe();
  session.close();
  return { result: reply.result, followUps: replies.slice(1) };
}
