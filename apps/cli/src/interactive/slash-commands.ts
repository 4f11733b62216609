import { dirname } from 'node:path';
import { deleteAgentFile } from '@troupe/node';
import { UsageError } from '../errors.js';
import { agentDetailLines, agentListLines } from '../render/agent-details.js';
import { taskTable } from '../render/task-table.js';
import { transcriptLines } from '../render/transcript.js';
import { matchTaskId } from '../task-ids.js';
import { createAgent } from './agent-maker.js';
import { cancelCommand, clearCommand, costCommand, modelCommand } from './session-commands.js';
import type { SessionHost } from './session-host.js';
import { teamCommand } from './team-command.js';

const HELP = `Commands:
  /agents                    list agents (source, model, tools)
  /agents show NAME          one agent in full
  /agents create [TEXT]      new project agent: from a one-line description, or step by step
  /agents delete NAME        delete a project or user agent file
  /tasks                     tasks of this session
  /tasks show ID             one task with its transcript (ID may be a prefix)
  /tasks cancel ID           cancel a queued or running task
  /team [ID]                 the session's team: members, latest messages, task list
  /team cancel [ID]          stop a team (every member's work is cancelled)
  /mcp                       MCP servers: status, tools and their access class
  /cancel [ID]               cancel a task; without ID, the current turn and every task of the session
  /clear                     start a new conversation (tasks and "always allow" answers stay)
  /model [ID]                show the models; with ID (or sonnet, opus, haiku), switch the main model
  /cost                      tokens and estimated cost of this session, by agent and model
  /expand                    show or hide streamed text under running tasks (also Ctrl-O)
  /help                      this list
  /exit                      leave (unfinished tasks of the session are cancelled)
Ctrl-C interrupts the current turn and its foreground sub-agents; twice exits.`;

/** Runs one `/` command of a session. Throws for a bad command (the session prints it). */
export async function runSlashCommand(app: SessionHost, input: string): Promise<void> {
  const [name = '', ...words] = input.slice(1).trim().split(/\s+/);
  const rest = input.slice(1).trim().slice(name.length).trim();
  const log = (text: string) => app.terminal.log(text);
  switch (name.toLowerCase()) {
    case 'help':
    case '?':
      log(HELP);
      return;
    case 'exit':
    case 'quit':
      await app.exit(0);
      return;
    case 'expand':
      app.toggleExpanded();
      return;
    case 'agents':
      await agentsCommand(app, words, rest);
      return;
    case 'tasks':
      await tasksCommand(app, words);
      return;
    case 'team':
    case 'teams':
      teamCommand(app, words);
      return;
    case 'mcp':
      log(((await app.options.mcpStatus?.()) ?? ['No MCP servers in this session.']).join('\n'));
      return;
    case 'cancel':
      cancelCommand(app, words[0]);
      return;
    case 'clear':
      clearCommand(app);
      return;
    case 'model':
      modelCommand(app, rest || undefined);
      return;
    case 'cost':
      await costCommand(app);
      return;
    default:
      throw new UsageError(`Unknown command /${name}. Type /help for the list.`);
  }
}

async function agentsCommand(app: SessionHost, words: string[], rest: string): Promise<void> {
  const { colors } = app.terminal;
  const log = (lines: string[]) => app.terminal.log(lines.join('\n'));
  const sub = words[0]?.toLowerCase() ?? 'list';
  const target = words[1];
  if (sub === 'list') return log(agentListLines(app.registry, colors));
  if (sub === 'show') {
    if (!target) throw new UsageError('Usage: /agents show NAME');
    return log(agentDetailLines(app.registry.require(target), colors));
  }
  if (sub === 'create') {
    const description = rest.slice(words[0]!.length).trim();
    const created = await createAgent(app, description);
    if (!created) return;
    app.agentsUpdated(await app.options.reloadAgents());
    return log([
      colors.green(`Created agent "${created.name}" in ${created.path}.`),
      'The main agent can use it from your next message.',
    ]);
  }
  if (sub === 'delete') {
    if (!target) throw new UsageError('Usage: /agents delete NAME');
    const definition = app.registry.require(target);
    if (definition.source === 'builtin' || !definition.path) {
      throw new UsageError(
        `"${definition.name}" is a built-in agent and cannot be deleted; create a project agent with the same name to replace it.`,
      );
    }
    const hidden = app.registry
      .shadowed()
      .filter((entry) => entry.kept === definition)
      .map((entry) => entry.shadowed);
    const lines = [`Delete agent "${definition.name}": ${definition.path} (${definition.source})?`];
    if (hidden[0])
      lines.push(
        colors.dim(
          `It shadows the ${hidden[0].source === 'builtin' ? 'built-in' : hidden[0].source} agent "${hidden[0].name}"${hidden[0].path && hidden[0].source !== 'builtin' ? ` (${hidden[0].path})` : ''}, which is used again once this file is gone.`,
        ),
      );
    const answer = await app.terminal.prompter.ask({ lines, prompt: 'Delete it? [y]es / [n]o: ' });
    if (!answer || !/^(y|yes)$/i.test(answer.trim())) return log([colors.dim('Nothing deleted.')]);
    const { path } = await deleteAgentFile({ dir: dirname(definition.path), name: definition.name });
    app.agentsUpdated(await app.options.reloadAgents());
    return log([colors.green(`Deleted agent "${definition.name}" (${path}).`)]);
  }
  throw new UsageError(`Unknown /agents command "${sub}": use list, show, create or delete.`);
}

async function tasksCommand(app: SessionHost, words: string[]): Promise<void> {
  const { runtime, session, terminal } = app;
  const { colors } = terminal;
  const sub = words[0]?.toLowerCase() ?? 'list';
  const tasks = runtime.list({ sessionKey: session.sessionKey });
  if (sub === 'list') {
    if (tasks.length === 0) return terminal.log('No tasks in this session yet.');
    const rows = tasks.map((info) => ({
      id: info.id,
      agent: info.agent,
      description: info.description,
      status: info.status,
      ...(info.result ? { terminateReason: info.result.terminateReason } : {}),
      toolCalls: info.toolCalls,
      durationMs: info.elapsedMs,
      tokens: info.tokens,
    }));
    return terminal.log(taskTable(rows, colors).join('\n'));
  }
  const given = words[1];
  if (!given) throw new UsageError(`Usage: /tasks ${sub} ID`);
  const id = matchTaskId(
    tasks.map((info) => info.id),
    given,
  );
  if (sub === 'cancel') return cancelCommand(app, id);
  if (sub === 'show') {
    const info = runtime.get(id)!;
    await runtime.store.flush();
    const snapshot = await runtime.store.loadSnapshot(id).catch(() => undefined);
    const messages = (snapshot?.snapshot as { context?: { messages?: unknown } } | undefined)?.context
      ?.messages;
    const lines = [
      `${colors.bold(`[${info.agent}] ${info.description}`)}  ${info.id}`,
      `status: ${info.status}${info.result ? ` (${info.result.terminateReason})` : ''} · ${info.toolCalls} tool calls · ${info.turns} turns${info.background ? ' · background' : ''}`,
      '',
    ];
    if (Array.isArray(messages)) lines.push(...transcriptLines(messages, colors));
    else lines.push(colors.dim('(No transcript yet: the task has not started.)'));
    if (info.result?.error) lines.push('', colors.red(`error: ${info.result.error.message}`));
    return terminal.log(lines.join('\n'));
  }
  throw new UsageError(`Unknown /tasks command "${sub}": use list, show or cancel.`);
}
