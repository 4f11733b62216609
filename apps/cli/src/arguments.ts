import { parseArgs } from 'node:util';
import { UsageError } from './errors.js';

/** The commands of `troupe`. `interactive` is what a bare `troupe` runs. */
export type CommandName =
  | 'interactive'
  | 'run'
  | 'agents'
  | 'tasks'
  | 'mcp'
  | 'demo'
  | 'help'
  | 'worker'
  | 'replay'
  | 'trust';

/** Values of every flag, after parsing. Which flags a command accepts is checked by {@link parseCommandLine}. */
export interface CliOptions {
  help: boolean;
  version: boolean;
  debug: boolean;
  json: boolean;
  background: boolean;
  /** `--inspect` / `--stately`: open the offline inspector (local relay) / the hosted Stately inspector. */
  inspect?: boolean;
  stately?: boolean;
  /** `replay --save FILE`: write the replay's timeline. */
  save?: string;
  /** `replay ID --fork-at STEP`: a new task from that step (checked by the replay command). */
  forkAt?: string;
  model?: string;
  smallModel?: string;
  planModel?: string;
  /** Extended thinking: the model's reasoning budget in tokens (at least 1024). */
  thinking?: number;
  approval?: 'ask' | 'auto' | 'deny';
  agent?: string;
  store?: string;
  /** A troupe cluster's Postgres connection string (`worker`, `run`, `tasks`). */
  postgres?: string;
  /** `worker --dead-after`: this worker takes another silent this long for dead (its tasks move). */
  deadAfterMs?: number;
  status?: string;
  limit?: number;
  /** More agent folders (`--agents-dir`, repeatable). */
  agentsDirs?: string[];
  /** Internal: the id a detached `run --background` child gives its task. */
  taskId?: string;
  /** `--trust-project`: use what the project folder brings for this command (not remembered). */
  trustProject?: boolean;
}

/** A parsed command line. */
export interface CommandLine {
  command: CommandName;
  /** Positional arguments after the command name. */
  args: string[];
  options: CliOptions;
}

const OPTIONS = {
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
  debug: { type: 'boolean' },
  json: { type: 'boolean' },
  background: { type: 'boolean' },
  model: { type: 'string' },
  'small-model': { type: 'string' },
  'plan-model': { type: 'string' },
  thinking: { type: 'string' },
  approval: { type: 'string' },
  agent: { type: 'string', short: 'a' },
  store: { type: 'string' },
  postgres: { type: 'string' },
  'dead-after': { type: 'string' },
  status: { type: 'string' },
  limit: { type: 'string' },
  'agents-dir': { type: 'string', multiple: true },
  'task-id': { type: 'string' },
  inspect: { type: 'boolean' },
  stately: { type: 'boolean' },
  save: { type: 'string' },
  'fork-at': { type: 'string' },
  'trust-project': { type: 'boolean' },
} as const;

type FlagName = keyof typeof OPTIONS;

const GLOBAL: FlagName[] = ['help', 'version', 'debug'];
const MODEL_FLAGS: FlagName[] = ['model', 'small-model', 'plan-model', 'thinking'];

/** Flags each command accepts besides the global ones. */
const ALLOWED: Record<CommandName, FlagName[]> = {
  interactive: [...MODEL_FLAGS, 'approval', 'store', 'agents-dir', 'inspect', 'stately', 'trust-project'],
  run: [
    ...MODEL_FLAGS,
    'trust-project',
    'approval',
    'store',
    'agent',
    'background',
    'json',
    'task-id',
    'agents-dir',
    'postgres',
    'inspect',
    'stately',
  ],
  agents: ['json', 'agents-dir', 'trust-project'],
  mcp: ['json', 'trust-project'],
  tasks: [
    ...MODEL_FLAGS,
    'approval',
    'store',
    'status',
    'limit',
    'json',
    'agents-dir',
    'postgres',
    'trust-project',
  ],
  worker: [...MODEL_FLAGS, 'approval', 'agents-dir', 'postgres', 'dead-after', 'trust-project'],
  demo: ['approval'],
  replay: [
    'store',
    'inspect',
    'stately',
    'save',
    'fork-at',
    'agent',
    'approval',
    'agents-dir',
    'trust-project',
    ...MODEL_FLAGS,
  ],
  help: [],
  trust: ['json'],
};

const COMMANDS = new Set<string>([
  'run',
  'agents',
  'tasks',
  'mcp',
  'demo',
  'help',
  'worker',
  'replay',
  'trust',
]);
const APPROVALS = new Set(['ask', 'auto', 'deny']);

function nonEmpty(flag: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (value.trim() === '') throw new UsageError(`--${flag} needs a value.`);
  return value.trim();
}

/**
 * Parses `troupe`'s arguments (without `node` and the script). Throws {@link UsageError} for an
 * unknown command or flag, a flag the command does not take, or a bad flag value.
 */
export function parseCommandLine(argv: readonly string[]): CommandLine {
  const { values, positionals, tokens } = parse(argv);
  const first = positionals[0];
  let command: CommandName = 'interactive';
  let args = positionals;
  if (first !== undefined) {
    if (!COMMANDS.has(first)) {
      throw new UsageError(
        `Unknown command "${first}". Commands: run, agents, tasks, mcp, trust, demo, replay, help (or no command for a session). Run \`troupe --help\`.`,
      );
    }
    command = first as CommandName;
    args = positionals.slice(1);
  }
  const allowed = new Set<string>([...GLOBAL, ...ALLOWED[command]]);
  for (const token of tokens) {
    if (token.kind === 'option' && !allowed.has(token.name)) {
      const name = command === 'interactive' ? 'troupe' : `troupe ${command}`;
      throw new UsageError(`${name} does not take --${token.name}. Run \`${name} --help\` for its options.`);
    }
  }
  const options: CliOptions = {
    help: values.help === true,
    version: values.version === true,
    debug: values.debug === true,
    json: values.json === true,
    background: values.background === true,
  };
  if (values.inspect) options.inspect = true;
  if (values['trust-project']) options.trustProject = true;
  if (values.stately) options.stately = true;
  const save = nonEmpty('save', values.save);
  if (save) options.save = save;
  const forkAt = nonEmpty('fork-at', values['fork-at']);
  if (forkAt) options.forkAt = forkAt;
  const model = nonEmpty('model', values.model);
  if (model) options.model = model;
  const small = nonEmpty('small-model', values['small-model']);
  if (small) options.smallModel = small;
  const plan = nonEmpty('plan-model', values['plan-model']);
  if (plan) options.planModel = plan;
  const agent = nonEmpty('agent', values.agent);
  if (agent) options.agent = agent;
  const store = nonEmpty('store', values.store);
  if (store) options.store = store;
  const dirs = values['agents-dir']?.map((dir) => nonEmpty('agents-dir', dir)!);
  if (dirs?.length) options.agentsDirs = dirs;
  const postgres = nonEmpty('postgres', values.postgres);
  if (postgres) options.postgres = postgres;
  const taskId = nonEmpty('task-id', values['task-id']);
  if (taskId) options.taskId = taskId;
  if (values.approval !== undefined) {
    if (!APPROVALS.has(values.approval))
      throw new UsageError(`--approval must be ask, auto or deny, not "${values.approval}".`);
    options.approval = values.approval as CliOptions['approval'] & string;
  }
  // Checked by the commands that read it (commands/status-option.ts): core's list of statuses is not
  // loaded to parse a command line.
  if (values.status !== undefined) options.status = values.status;
  if (values.thinking !== undefined) {
    const budget = Number(values.thinking);
    if (!Number.isInteger(budget) || budget < 1024)
      throw new UsageError(
        `--thinking must be a number of tokens, at least 1024 (e.g. --thinking 4000), not "${values.thinking}".`,
      );
    options.thinking = budget;
  }
  if (values['dead-after'] !== undefined) options.deadAfterMs = deadAfter(values['dead-after']);
  if (values.limit !== undefined) {
    const limit = Number(values.limit);
    if (!Number.isInteger(limit) || limit < 1)
      throw new UsageError(`--limit must be a positive whole number, not "${values.limit}".`);
    options.limit = limit;
  }
  return { command, args, options };
}

/** The worker's heartbeat (1 s): a worker is judged dead after two missed beats at the least. */
const MIN_DEAD_AFTER_MS = 2_000;

/** `--dead-after 10s`, `2500ms` or `2500` (milliseconds). */
function deadAfter(value: string): number {
  const match = /^(\d+(?:\.\d+)?)\s*(ms|s)?$/.exec(value.trim());
  const ms = match ? Number(match[1]) * (match[2] === 's' ? 1000 : 1) : Number.NaN;
  if (!Number.isFinite(ms) || ms < MIN_DEAD_AFTER_MS)
    throw new UsageError(
      `--dead-after must be a duration of at least 2s (e.g. --dead-after 10s or 10000ms), not "${value}".`,
    );
  return Math.round(ms);
}

/** Flags that take a value: the word after them is their value even when it starts with `-`. */
const VALUE_FLAGS = new Set(
  Object.entries(OPTIONS)
    .filter(([, option]) => option.type === 'string')
    .map(([name]) => `--${name}`),
);

/** `--limit -3` → `--limit=-3`, so a negative number is reported as a bad value, not a flag. */
function joinValues(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let index = 0; index < argv.length; index++) {
    const word = argv[index]!;
    const next = argv[index + 1];
    if (VALUE_FLAGS.has(word) && next !== undefined && /^-\d/.test(next)) {
      out.push(`${word}=${next}`);
      index++;
    } else out.push(word);
  }
  return out;
}

function parse(argv: readonly string[]) {
  try {
    return parseArgs({
      args: joinValues(argv),
      options: OPTIONS,
      allowPositionals: true,
      strict: true,
      tokens: true,
    });
  } catch (error) {
    throw new UsageError(parseErrorMessage(error), { cause: error });
  }
}

function parseErrorMessage(error: unknown): string {
  const code = (error as { code?: string }).code;
  const message = error instanceof Error ? error.message : String(error);
  const option = /'(-[^']*)'/.exec(message)?.[1]?.replace(/ <value>$/, '');
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && option) {
    const guess = closestFlag(option);
    return `Unknown option ${option}.${guess ? ` Did you mean ${guess}?` : ''} Run \`troupe --help\` for the options.`;
  }
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && option) {
    return /argument missing/.test(message)
      ? `${option.split(',').pop()?.trim()} needs a value.`
      : `${option.split(',').pop()?.trim()} does not take a value.`;
  }
  return message.split('\n')[0] ?? message;
}

/** The flag closest to a mistyped one (at most two edits away), if any. */
function closestFlag(given: string): string | undefined {
  const name = given.replace(/^-+/, '').split('=')[0]!;
  let best: { flag: string; distance: number } | undefined;
  for (const flag of Object.keys(OPTIONS)) {
    if (flag === 'task-id') continue;
    const distance = editDistance(name, flag);
    if (distance <= 2 && distance < name.length && (!best || distance < best.distance))
      best = { flag: `--${flag}`, distance };
  }
  return best?.flag;
}

/** Levenshtein distance (insertions, deletions, substitutions). */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current.push(Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost));
    }
    previous = current;
  }
  return previous[b.length]!;
}
