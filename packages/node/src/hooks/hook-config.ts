/**
 * The hook events troupe runs (Claude Code's names). In settings, `Stop` is a session's main agent
 * stopping; in an agent file it is that agent's `SubagentStop`.
 */
export type HookEventName =
  | 'PreToolUse'
  | 'PostToolUse'
  | 'PostToolUseFailure'
  | 'SubagentStart'
  | 'SubagentStop'
  | 'Stop'
  | 'UserPromptSubmit';

interface HookHandlerBase {
  /** Seconds before it is given up (a command's process group killed); default 60 (a prompt hook 30). */
  timeoutSeconds?: number;
  /** Where it was defined, for messages: a settings file or an agent file, with the line when known. */
  source: string;
}

/** One shell hook: a command run with the event's JSON on stdin. */
export interface ShellHook extends HookHandlerBase {
  type?: 'command';
  command: string;
}

/**
 * One HTTP hook: the event's JSON POSTed to `url`; a 2xx response's body is read as a command's
 * stdout. It runs only when the host allows its URL (`allowedHttpHookUrls`).
 */
export interface HttpHook extends HookHandlerBase {
  type: 'http';
  url: string;
  /** Request headers; `$NAME` / `${NAME}` are replaced by variables named in `allowedEnvVars` only. */
  headers?: Record<string, string>;
  allowedEnvVars?: string[];
}

/**
 * One prompt hook: a single model call judging the event's JSON (`$ARGUMENTS` in `prompt`, or
 * appended), answering `{ "ok": true }` or `{ "ok": false, "reason": "…" }`; `ok: false` blocks
 * as exit code 2 does. It runs only when the host gives `createShellHooks` a model.
 */
export interface PromptHook extends HookHandlerBase {
  type: 'prompt';
  prompt: string;
  /** The model to ask (an id or alias the host's adapter knows); default the host's choice. */
  model?: string;
}

/** A hook of any type troupe runs. */
export type HookHandler = ShellHook | HttpHook | PromptHook;

/** Hooks of one event whose matcher (a tool name or agent type pattern) selects when they run. */
export interface HookMatcher {
  /** A regular expression matched against the whole name, case-insensitively; undefined or `*`: every one. */
  matcher?: string;
  hooks: HookHandler[];
}

/** Hooks by event, as read from one settings file or agent file. */
export type HookConfig = Partial<Record<HookEventName, HookMatcher[]>>;

/** A hook definition that could not be used: a message naming the file and line. */
export interface HookProblem {
  file: string;
  line?: number;
  message: string;
}

const EVENTS: readonly string[] = [
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
  'SubagentStart',
  'SubagentStop',
  'Stop',
  'UserPromptSubmit',
];
/** Claude Code's other events: known, not run by troupe (reported once, not as malformed). */
const OTHER_EVENTS: readonly string[] = [
  'PermissionRequest',
  'PermissionDenied',
  'Notification',
  'SessionStart',
  'SessionEnd',
  'PreCompact',
  'PostCompact',
  'TeammateIdle',
  'TaskCreated',
  'TaskCompleted',
  'StopFailure',
];

/** The 1-based line of the first occurrence of `"key"` or `key:` in `text`, if any. */
export function lineOfKey(text: string | undefined, key: string): number | undefined {
  if (!text) return undefined;
  const lines = text.split(/\r\n|\r|\n/);
  const quoted = `"${key}"`;
  const plain = new RegExp(`^\\s*-?\\s*['"]?${key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}['"]?\\s*:`);
  const index = lines.findIndex((line) => line.includes(quoted) || plain.test(line));
  return index < 0 ? undefined : index + 1;
}

/** The 1-based line of the first line at or after `from` (1-based) that contains `needle`. */
function lineAfter(text: string | undefined, needle: string, from: number | undefined): number | undefined {
  if (!text) return undefined;
  const lines = text.split(/\r\n|\r|\n/);
  for (let index = Math.max(0, (from ?? 1) - 1); index < lines.length; index++)
    if (lines[index]!.includes(needle)) return index + 1;
  return undefined;
}

type RawHook = {
  type?: unknown;
  command?: unknown;
  timeout?: unknown;
  url?: unknown;
  headers?: unknown;
  allowedEnvVars?: unknown;
  prompt?: unknown;
  model?: unknown;
};

/**
 * Reads a `hooks` value in Claude Code's shape —
 * `{ "PreToolUse": [{ "matcher": "Bash", "hooks": [{ "type": "command", "command": "…", "timeout": 30 }] }] }` —
 * from `file` (`text`, when given, is its text, to name lines). In an agent file (`agentFile`),
 * `Stop` is read as `SubagentStop`. Hooks of type `command`, `http` and `prompt` are read; what
 * cannot be used (a wrong shape, an unknown event, an `agent` hook, a hook with no command, url or
 * prompt, a matcher that is not a valid pattern) is a problem naming the file and line, and the
 * rest is kept: never a throw.
 */
export function readHookConfig(
  value: unknown,
  file: string,
  options: { text?: string; agentFile?: boolean } = {},
): { config: HookConfig; problems: HookProblem[] } {
  const config: HookConfig = {};
  const problems: HookProblem[] = [];
  const at = (line: number | undefined, message: string) => {
    problems.push(
      line === undefined
        ? { file, message: `${file}: ${message}` }
        : { file, line, message: `${file}:${line}: ${message}` },
    );
  };
  const problem = (key: string, message: string) => at(lineOfKey(options.text, key), message);
  if (value === undefined || value === null) return { config, problems };
  if (typeof value !== 'object' || Array.isArray(value)) {
    problem(
      'hooks',
      'hooks must be an object of events, such as { "PreToolUse": [{ "matcher": "Bash", "hooks": [{ "type": "command", "command": "…" }] }] }; the hooks were ignored.',
    );
    return { config, problems };
  }
  for (const [key, entries] of Object.entries(value as Record<string, unknown>)) {
    const event = options.agentFile && key === 'Stop' ? 'SubagentStop' : key;
    const eventLine = lineOfKey(options.text, key);
    if (!EVENTS.includes(event)) {
      problem(
        key,
        OTHER_EVENTS.includes(key)
          ? `hooks.${key}: troupe does not run ${key} hooks (it runs ${EVENTS.join(', ')}${options.agentFile ? ", and an agent file's Stop as SubagentStop" : ''}); they were ignored.`
          : `hooks.${key}: unknown hook event; it was ignored. Events: ${EVENTS.join(', ')}.`,
      );
      continue;
    }
    if (!Array.isArray(entries)) {
      problem(key, `hooks.${key} must be a list of { "matcher", "hooks": [...] } entries; it was ignored.`);
      continue;
    }
    const matchers: HookMatcher[] = [];
    entries.forEach((entry, index) => {
      const where = `hooks.${key}[${index}]`;
      if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
        problem(key, `${where} must be an object with "hooks"; it was ignored.`);
        return;
      }
      const { matcher, hooks } = entry as { matcher?: unknown; hooks?: unknown };
      if (matcher !== undefined && typeof matcher !== 'string') {
        problem(
          key,
          `${where}.matcher must be a string (a tool name or pattern such as "Edit|Write"); the entry was ignored.`,
        );
        return;
      }
      if (typeof matcher === 'string' && matcher !== '' && matcher !== '*') {
        try {
          new RegExp(`^(?:${matcher})$`, 'i');
        } catch {
          problem(key, `${where}.matcher "${matcher}" is not a valid pattern; the entry was ignored.`);
          return;
        }
      }
      if (!Array.isArray(hooks)) {
        problem(
          key,
          `${where}.hooks must be a list of { "type": "command", "command": "…" }; the entry was ignored.`,
        );
        return;
      }
      const handlers: HookHandler[] = [];
      for (const [hookIndex, hook] of hooks.entries()) {
        const path = `${where}.hooks[${hookIndex}]`;
        const raw = (typeof hook === 'object' && hook !== null ? hook : {}) as RawHook;
        const { type, timeout } = raw;
        const main = raw.command ?? raw.url ?? raw.prompt ?? type;
        const line =
          (typeof main === 'string' ? lineAfter(options.text, JSON.stringify(main), eventLine) : undefined) ??
          eventLine;
        const source = line === undefined ? file : `${file}:${line}`;
        const fail = (message: string) => at(line, `${path}${message}`);
        if (
          timeout !== undefined &&
          !(typeof timeout === 'number' && Number.isFinite(timeout) && timeout > 0)
        ) {
          fail('.timeout must be a number of seconds > 0; the hook was ignored.');
          continue;
        }
        const base = timeout === undefined ? { source } : { timeoutSeconds: timeout as number, source };
        const handler = readHandler(raw, base, fail);
        if (handler) handlers.push(handler);
      }
      if (handlers.length)
        matchers.push(typeof matcher === 'string' ? { matcher, hooks: handlers } : { hooks: handlers });
    });
    if (matchers.length)
      config[event as HookEventName] = [...(config[event as HookEventName] ?? []), ...matchers];
  }
  return { config, problems };
}

/** One hook of a known type, or undefined after `fail` said why it cannot be used. */
function readHandler(
  raw: RawHook,
  base: { source: string; timeoutSeconds?: number },
  fail: (message: string) => void,
): HookHandler | undefined {
  const { type } = raw;
  if (type === 'command') {
    if (typeof raw.command === 'string' && raw.command.trim() !== '')
      return { ...base, command: raw.command };
    fail('.command must be a non-empty shell command; the hook was ignored.');
    return undefined;
  }
  if (type === 'http') {
    if (typeof raw.url !== 'string' || !safeUrl(raw.url)) {
      fail('.url must be an http:// or https:// URL; the hook was ignored.');
      return undefined;
    }
    const headers = stringRecord(raw.headers);
    if (raw.headers !== undefined && !headers) {
      fail('.headers must be an object of header names to strings; the hook was ignored.');
      return undefined;
    }
    const allowed = raw.allowedEnvVars;
    if (
      allowed !== undefined &&
      !(Array.isArray(allowed) && allowed.every((name) => typeof name === 'string'))
    ) {
      fail('.allowedEnvVars must be a list of variable names; the hook was ignored.');
      return undefined;
    }
    return {
      ...base,
      type: 'http',
      url: raw.url,
      ...(headers ? { headers } : {}),
      ...(allowed ? { allowedEnvVars: allowed as string[] } : {}),
    };
  }
  if (type === 'prompt') {
    if (typeof raw.prompt !== 'string' || raw.prompt.trim() === '') {
      fail('.prompt must be a non-empty text; the hook was ignored.');
      return undefined;
    }
    if (raw.model !== undefined && typeof raw.model !== 'string') {
      fail('.model must be a model id or alias; the hook was ignored.');
      return undefined;
    }
    return {
      ...base,
      type: 'prompt',
      prompt: raw.prompt,
      ...(typeof raw.model === 'string' ? { model: raw.model } : {}),
    };
  }
  if (type === 'agent')
    fail(
      ': troupe does not run hooks of type "agent" (a sub-agent with tools judging the event would be an unjournaled agent inside a task); use a "prompt" or "command" hook; it was ignored.',
    );
  else
    fail(
      `: troupe runs hooks of type "command", "http" and "prompt"${typeof type === 'string' ? `, not "${type}"` : ' (type is missing)'}; it was ignored.`,
    );
  return undefined;
}

function safeUrl(text: string): URL | undefined {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : undefined;
  } catch {
    return undefined;
  }
}

function stringRecord(value: unknown): Record<string, string> | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const entries = Object.entries(value as Record<string, unknown>);
  if (!entries.every(([, item]) => typeof item === 'string')) return undefined;
  return Object.fromEntries(entries) as Record<string, string>;
}

/** True when `config` holds at least one hook. */
export function hasHooks(config: HookConfig): boolean {
  return Object.values(config).some((matchers) => matchers.length > 0);
}

/** Whether a matcher selects `name` (a tool name or an agent type). */
export function matcherSelects(matcher: string | undefined, name: string): boolean {
  if (matcher === undefined || matcher === '' || matcher === '*') return true;
  try {
    return new RegExp(`^(?:${matcher})$`, 'i').test(name);
  } catch {
    return false;
  }
}
