/** The hook events troupe runs (Claude Code's names; an agent file's `Stop` is its `SubagentStop`). */
export type HookEventName = 'PreToolUse' | 'PostToolUse' | 'SubagentStart' | 'SubagentStop';

/** One shell hook: a command run with the event's JSON on stdin. */
export interface ShellHook {
  command: string;
  /** Seconds before its process group is killed (Claude Code's `timeout`); default 60. */
  timeoutSeconds?: number;
  /** Where it was defined, for messages (`.claude/settings.json`, an agent file). */
  source: string;
}

/** Hooks of one event whose matcher (a tool name or agent type pattern) selects when they run. */
export interface HookMatcher {
  /** A regular expression matched against the whole name, case-insensitively; undefined or `*`: every one. */
  matcher?: string;
  hooks: ShellHook[];
}

/** Hooks by event, as read from one settings file or agent file. */
export type HookConfig = Partial<Record<HookEventName, HookMatcher[]>>;

/** A hook definition that could not be used: a message naming the file and line. */
export interface HookProblem {
  file: string;
  line?: number;
  message: string;
}

const EVENTS: readonly string[] = ['PreToolUse', 'PostToolUse', 'SubagentStart', 'SubagentStop'];
/** Claude Code's other events: known, not run by troupe (reported once, not as malformed). */
const OTHER_EVENTS: readonly string[] = [
  'PermissionRequest',
  'PostToolUseFailure',
  'Notification',
  'UserPromptSubmit',
  'SessionStart',
  'SessionEnd',
  'PreCompact',
  'TeammateIdle',
  'TaskCompleted',
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

/**
 * Reads a `hooks` value in Claude Code's shape —
 * `{ "PreToolUse": [{ "matcher": "Bash", "hooks": [{ "type": "command", "command": "…", "timeout": 30 }] }] }` —
 * from `file` (`text`, when given, is its text, to name lines). In an agent file (`agentFile`),
 * `Stop` is read as `SubagentStop`. What cannot be used (a wrong shape, an unknown event, a hook
 * with no command, a matcher that is not a valid pattern) is a problem naming the file and line,
 * and the rest is kept: never a throw.
 */
export function readHookConfig(
  value: unknown,
  file: string,
  options: { text?: string; agentFile?: boolean } = {},
): { config: HookConfig; problems: HookProblem[] } {
  const config: HookConfig = {};
  const problems: HookProblem[] = [];
  const problem = (key: string, message: string) => {
    const line = lineOfKey(options.text, key);
    problems.push(
      line === undefined
        ? { file, message: `${file}: ${message}` }
        : { file, line, message: `${file}:${line}: ${message}` },
    );
  };
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
    if (!EVENTS.includes(event)) {
      problem(
        key,
        OTHER_EVENTS.includes(key) || key === 'Stop'
          ? `hooks.${key}: troupe does not run ${key} hooks (it runs PreToolUse, PostToolUse, SubagentStart and SubagentStop${options.agentFile ? ', and Stop as SubagentStop' : ''}); they were ignored.`
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
      const shell: ShellHook[] = [];
      hooks.forEach((hook, hookIndex) => {
        const at = `${where}.hooks[${hookIndex}]`;
        const { type, command, timeout } = (typeof hook === 'object' && hook !== null ? hook : {}) as {
          type?: unknown;
          command?: unknown;
          timeout?: unknown;
        };
        if (type !== 'command') {
          problem(
            key,
            `${at}: troupe runs hooks of type "command" only${typeof type === 'string' ? `, not "${type}"` : ''}; it was ignored.`,
          );
          return;
        }
        if (typeof command !== 'string' || command.trim() === '') {
          problem(key, `${at}.command must be a non-empty shell command; the hook was ignored.`);
          return;
        }
        if (
          timeout !== undefined &&
          !(typeof timeout === 'number' && Number.isFinite(timeout) && timeout > 0)
        ) {
          problem(key, `${at}.timeout must be a number of seconds > 0; the hook was ignored.`);
          return;
        }
        shell.push(
          timeout === undefined
            ? { command, source: file }
            : { command, timeoutSeconds: timeout, source: file },
        );
      });
      if (shell.length)
        matchers.push(typeof matcher === 'string' ? { matcher, hooks: shell } : { hooks: shell });
    });
    if (matchers.length)
      config[event as HookEventName] = [...(config[event as HookEventName] ?? []), ...matchers];
  }
  return { config, problems };
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
