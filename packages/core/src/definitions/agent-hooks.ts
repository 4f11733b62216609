import { isPlainObject } from './field-schemas.js';
import { HOOK_EVENTS, HOOK_TARGETS } from './hook-events.js';
import type {
  AgentHookCommand,
  AgentHookHttp,
  AgentHookMatcher,
  AgentHookPrompt,
  AgentHooks,
} from './types.js';
import { type DefinitionWarning, makeWarning, preview, type SourceLocation } from './warnings.js';

const EVENTS = new Set<string>(HOOK_EVENTS);

/**
 * Reads an agent file's `hooks` in Claude Code's shape,
 * `{ [event]: [{ matcher?, hooks: [{ type: 'command', command, timeout? }] }] }` (also `http` and
 * `prompt` hooks). Never throws: a
 * malformed event, entry or command is dropped with a `field-ignored` warning naming the file, the
 * line of `hooks` and the entry's path (`hooks.PreToolUse[0].hooks[1]`). Returns undefined when
 * nothing usable is left.
 */
export function readAgentHooks(
  value: unknown,
  where: SourceLocation,
  warnings: DefinitionWarning[],
): AgentHooks | undefined {
  const warn = (path: string, text: string) =>
    warnings.push(makeWarning('field-ignored', `${path}: ${text}; ignored.`, where));
  if (!isPlainObject(value)) {
    warn('hooks', `expected an object of events ({ PreToolUse: [...] }), got ${preview(value)}`);
    return undefined;
  }
  const hooks: AgentHooks = {};
  for (const [event, entries] of Object.entries(value)) {
    const path = `hooks.${event}`;
    if (!EVENTS.has(event)) {
      warn(path, `'${event}' is not a hook event (expected one of ${HOOK_EVENTS.join(', ')})`);
      continue;
    }
    if (!Array.isArray(entries)) {
      warn(path, `expected a list of { matcher, hooks } entries, got ${preview(entries)}`);
      continue;
    }
    const matchers: AgentHookMatcher[] = [];
    entries.forEach((entry, index) => {
      const matcher = readMatcher(entry, `${path}[${index}]`, warn);
      if (matcher) matchers.push(matcher);
    });
    if (matchers.length > 0) hooks[event] = matchers;
  }
  return Object.keys(hooks).length > 0 ? hooks : undefined;
}

function readMatcher(
  entry: unknown,
  path: string,
  warn: (path: string, text: string) => void,
): AgentHookMatcher | undefined {
  if (!isPlainObject(entry)) {
    warn(path, `expected { matcher, hooks: [...] }, got ${preview(entry)}`);
    return undefined;
  }
  const result: AgentHookMatcher = { hooks: [] };
  if (entry.matcher !== undefined && entry.matcher !== null && entry.matcher !== '') {
    if (typeof entry.matcher !== 'string') {
      warn(
        `${path}.matcher`,
        `expected a tool-name pattern such as 'Write|Edit', got ${preview(entry.matcher)}`,
      );
      return undefined;
    }
    result.matcher = entry.matcher;
  }
  if (!Array.isArray(entry.hooks)) {
    warn(
      `${path}.hooks`,
      `expected a list of { type: command, command } entries, got ${preview(entry.hooks)}`,
    );
    return undefined;
  }
  entry.hooks.forEach((hook, index) => {
    const command = readCommand(hook, `${path}.hooks[${index}]`, warn);
    if (command) result.hooks.push(command);
  });
  return result.hooks.length > 0 ? result : undefined;
}

function readCommand(
  hook: unknown,
  path: string,
  warn: (path: string, text: string) => void,
): AgentHookCommand | AgentHookHttp | AgentHookPrompt | undefined {
  if (!isPlainObject(hook)) {
    warn(path, `expected { type: command, command }, got ${preview(hook)}`);
    return undefined;
  }
  const type = hook.type as keyof typeof HOOK_TARGETS;
  const field = Object.hasOwn(HOOK_TARGETS, type) ? HOOK_TARGETS[type] : undefined;
  if (!field) {
    warn(
      `${path}.type`,
      `troupe runs 'command', 'http' and 'prompt' hooks (not 'agent': see the README's hooks section), got ${preview(hook.type)}`,
    );
    return undefined;
  }
  const target = hook[field];
  if (
    typeof target !== 'string' ||
    target.trim() === '' ||
    (field === 'url' && !/^https?:\/\//i.test(target))
  ) {
    warn(
      `${path}.${field}`,
      `expected ${field === 'url' ? 'an http(s) URL' : `a ${type}`}, got ${preview(target)}`,
    );
    return undefined;
  }
  // Headers, variables and a model are checked where the hook runs (`@troupe/node`'s readHookConfig).
  const kept: Record<string, unknown> = { type, [field]: target };
  for (const key of ['headers', 'allowedEnvVars', 'model'])
    if (hook[key] !== undefined) kept[key] = hook[key];
  if (hook.timeout !== undefined) {
    const seconds = typeof hook.timeout === 'string' ? Number(hook.timeout) : hook.timeout;
    if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds <= 0) {
      warn(`${path}.timeout`, `expected a number of seconds greater than 0, got ${preview(hook.timeout)}`);
      return undefined;
    }
    kept.timeout = seconds;
  }
  return kept as unknown as AgentHookCommand | AgentHookHttp | AgentHookPrompt;
}
