import type { ModelAdapter } from '@troupe/core';
import type { HookEventName, HookHandler } from './hook-config.js';
import { blockingVerdict, type HookVerdict, hookLabel, readHookBody, readHookRun } from './hook-output.js';
import { runHttpHook } from './run-http-hook.js';
import { runPromptHook } from './run-prompt-hook.js';
import { runShellHook } from './run-shell-hook.js';

/** A verdict with the hook it came from (its label: the command, URL or prompt, shortened). */
export interface SourcedVerdict extends HookVerdict {
  hook: HookHandler;
  label: string;
}

/** What every hook run shares. */
export interface HookRunSettings {
  cwd: string;
  env: NodeJS.ProcessEnv;
  defaultTimeoutSeconds: number;
  maxOutputChars: number;
  promptHooks?: { model: ModelAdapter; modelId: string };
  allowedHttpHookUrls: readonly string[] | undefined;
}

const LOOPBACK = [
  'http://localhost:*',
  'http://localhost/*',
  'http://127.0.0.1:*',
  'http://127.0.0.1/*',
  'http://[::1]:*',
  'http://[::1]/*',
];

/** Whether `url` matches a pattern of `patterns` (`*`: any run of characters; the whole URL). */
export function urlAllowed(url: string, patterns: readonly string[]): boolean {
  return patterns.some((pattern) => {
    const expression = pattern
      .split('*')
      .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*');
    return new RegExp(`^${expression}$`, 'i').test(url);
  });
}

const short = (text: string) => (text.length > 60 ? `${text.slice(0, 57)}...` : text);

/**
 * Runs one hook of any type with `input` (the event's JSON) and reads its answer. Never rejects:
 * what goes wrong is the verdict's `problem`.
 */
export async function runHook(
  event: HookEventName,
  hook: HookHandler,
  input: string,
  settings: HookRunSettings,
  signal: AbortSignal,
): Promise<SourcedVerdict> {
  if (hook.type === 'http') {
    const label = short(hook.url);
    const name = hookLabel(event, hook.url);
    const allowed = settings.allowedHttpHookUrls ?? LOOPBACK;
    if (!urlAllowed(hook.url, allowed))
      return {
        hook,
        label,
        problem: `The ${name} was not run: its URL is not in allowedHttpHookUrls (${settings.allowedHttpHookUrls ? settings.allowedHttpHookUrls.join(', ') || 'empty' : 'unset: loopback URLs only'}); add it to your user settings to allow it.`,
      };
    const response = await runHttpHook({
      url: hook.url,
      ...(hook.headers ? { headers: hook.headers } : {}),
      ...(hook.allowedEnvVars ? { allowedEnvVars: hook.allowedEnvVars } : {}),
      env: process.env,
      input,
      timeoutMs: (hook.timeoutSeconds ?? settings.defaultTimeoutSeconds) * 1000,
      maxOutputChars: settings.maxOutputChars,
      signal,
    });
    if (response.status === undefined)
      return {
        hook,
        label,
        problem: response.timedOut
          ? `The ${name} timed out; it counts as no answer.`
          : `The ${name} could not be reached: ${response.failed}; it counts as no answer.`,
      };
    if (response.status < 200 || response.status > 299)
      return {
        hook,
        label,
        problem: `The ${name} answered HTTP ${response.status}; it counts as no answer.`,
      };
    return { hook, label, ...readHookBody(event, name, response.body) };
  }
  if (hook.type === 'prompt') {
    const label = short(hook.prompt);
    const name = hookLabel(event, hook.prompt);
    if (!settings.promptHooks)
      return { hook, label, problem: `The ${name} was not run: this host gives prompt hooks no model.` };
    const answer = await runPromptHook({
      model: settings.promptHooks.model,
      modelId: hook.model ?? settings.promptHooks.modelId,
      prompt: hook.prompt,
      input,
      timeoutMs: (hook.timeoutSeconds ?? 30) * 1000,
      signal,
    });
    if ('failed' in answer)
      return { hook, label, problem: `The ${name} gave no answer: ${answer.failed}; it counts as none.` };
    return answer.ok ? { hook, label } : { hook, label, ...blockingVerdict(event, name, answer.reason) };
  }
  const result = await runShellHook({
    command: hook.command,
    input,
    cwd: settings.cwd,
    env: settings.env,
    timeoutMs: (hook.timeoutSeconds ?? settings.defaultTimeoutSeconds) * 1000,
    maxOutputChars: settings.maxOutputChars,
    signal,
  });
  return { hook, label: short(hook.command), ...readHookRun(event, hook.command, result) };
}
