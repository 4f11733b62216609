import { readFileSync } from 'node:fs';
import { parseCommandLine } from './arguments.js';
import { reportError, UsageError } from './errors.js';
import { EXIT } from './exit-codes.js';
import { helpText } from './help.js';
import type { CliContext, CliIo } from './io.js';

const HELP_TOPICS = new Set(['run', 'agents', 'tasks', 'mcp', 'demo', 'help', 'worker', 'replay', 'trust']);

/**
 * Runs `troupe` with `argv` (the arguments after the script) and resolves to the exit code. Only
 * the chosen command's module is loaded, so `--help` starts without loading the runtime or the SDK.
 * Never throws: errors become one line on stderr (the stack with `--debug`) and an exit code.
 */
export async function main(argv: readonly string[], io: CliIo): Promise<number> {
  let debug = argv.includes('--debug');
  try {
    const line = parseCommandLine(argv);
    debug = line.options.debug;
    if (line.options.version) {
      io.stdout.write(`troupe ${version()}\n`);
      return EXIT.ok;
    }
    if (line.command === 'help') {
      const topic = line.args[0];
      if (topic !== undefined && !HELP_TOPICS.has(topic))
        throw new UsageError(`No help for "${topic}": try run, agents, tasks, demo or replay.`);
      io.stdout.write(helpText(topic));
      return EXIT.ok;
    }
    if (line.options.help) {
      io.stdout.write(helpText(line.command));
      return EXIT.ok;
    }
    const context: CliContext = { ...io, line };
    switch (line.command) {
      case 'run':
        if (line.options.postgres ?? io.env.TROUPE_POSTGRES)
          return await (await import('./commands/cluster.js')).clusterRunCommand(context);
        return await (await import('./commands/run.js')).runCommand(context);
      case 'agents':
        return await (await import('./commands/agents.js')).agentsCommand(context);
      case 'tasks':
        if (line.options.postgres ?? io.env.TROUPE_POSTGRES)
          return await (await import('./commands/cluster.js')).clusterTasksCommand(context);
        return await (await import('./commands/tasks.js')).tasksCommand(context);
      case 'mcp':
        return await (await import('./commands/mcp.js')).mcpCommand(context);
      case 'worker':
        return await (await import('./commands/worker.js')).workerCommand(context);
      case 'demo':
        return await (await import('./commands/demo.js')).demoCommand(context);
      case 'replay':
        return await (await import('./commands/replay.js')).replayCommand(context);
      case 'trust':
        return await (await import('./commands/trust.js')).trustCommand(context);
      default:
        return await (await import('./commands/interactive.js')).interactiveCommand(context);
    }
  } catch (error) {
    return reportError(error, io.stderr, debug);
  }
}

function version(): string {
  try {
    const text = readFileSync(new URL('../package.json', import.meta.url), 'utf8');
    return String((JSON.parse(text) as { version?: unknown }).version ?? 'unknown');
  } catch {
    return 'unknown';
  }
}
