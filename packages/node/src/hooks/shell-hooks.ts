import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { HookCallBase, Message, RuntimeHooks } from '@troupe/core';
import { bashEnvironment } from '../tools/bash-environment.js';
import { type HookConfig, type HookEventName, matcherSelects, type ShellHook } from './hook-config.js';
import { type HookVerdict, readHookRun } from './hook-output.js';
import { runShellHook } from './run-shell-hook.js';

/** Options of {@link createShellHooks}. */
export interface ShellHooksOptions {
  /** The folder hooks run in: their `cwd` and `CLAUDE_PROJECT_DIR`. */
  cwd: string;
  /** Hooks for every agent (settings files), in order. */
  settings?: readonly HookConfig[];
  /**
   * The hooks of an agent's own file, by agent name: only those to run (a host leaves out an
   * untrusted project's).
   */
  agentHooks?: (agentType: string) => HookConfig | undefined;
  /** Variables passed to hooks besides the bash tool's safe list (names). */
  passEnv?: readonly string[];
  /** Seconds a hook may run when it names no `timeout`. Default 60. */
  defaultTimeoutSeconds?: number;
  /** The most characters of a hook's stdout and of its stderr read (each). Default 30,000. */
  maxOutputChars?: number;
  /** Told about hooks that failed, timed out or printed what cannot be read (they count as no answer). */
  onWarning?: (message: string) => void;
}

/**
 * Claude Code's shell hooks as troupe's {@link RuntimeHooks}: for each hook point, the matching
 * hooks of the settings and of the agent's own file run (in parallel) with the event's JSON on
 * stdin, and their answers are combined (a denial wins over `ask`, `ask` over `allow`; blocks and
 * added context are joined). Each runs in its own process group, killed at its timeout, with its
 * output capped.
 */
export function createShellHooks(options: ShellHooksOptions): RuntimeHooks {
  const timeoutDefault = options.defaultTimeoutSeconds ?? 60;
  const maxOutputChars = options.maxOutputChars ?? 30_000;
  const env = { ...bashEnvironment(options.passEnv ?? []), CLAUDE_PROJECT_DIR: options.cwd };
  const warn = options.onWarning ?? (() => {});
  const selected = (event: HookEventName, agentType: string, name: string): ShellHook[] => {
    const configs = [...(options.settings ?? []), options.agentHooks?.(agentType) ?? {}];
    return configs.flatMap((config) =>
      (config[event] ?? [])
        .filter((entry) => matcherSelects(entry.matcher, name))
        .flatMap((entry) => entry.hooks),
    );
  };
  const run = async (
    event: HookEventName,
    hooks: readonly ShellHook[],
    input: Record<string, unknown>,
    signal: AbortSignal,
  ): Promise<HookVerdict[]> => {
    const text = JSON.stringify(input);
    const verdicts = await Promise.all(
      hooks.map(async (hook) => {
        const result = await runShellHook({
          command: hook.command,
          input: text,
          cwd: options.cwd,
          env,
          timeoutMs: (hook.timeoutSeconds ?? timeoutDefault) * 1000,
          maxOutputChars,
          signal,
        });
        const verdict = readHookRun(event, hook.command, result);
        if (verdict.problem) warn(`${verdict.problem} (from ${hook.source})`);
        return verdict;
      }),
    );
    return verdicts;
  };
  const common = (call: HookCallBase, event: HookEventName) => ({
    session_id: call.sessionId,
    cwd: options.cwd,
    permission_mode: 'default',
    hook_event_name: event,
    agent_id: call.agentId,
    agent_type: call.agentType,
  });
  const joined = (texts: (string | undefined)[]) => {
    const kept = texts.filter((text): text is string => typeof text === 'string' && text.trim() !== '');
    return kept.length ? kept.join('\n') : undefined;
  };
  return {
    async preToolUse(call, signal) {
      const hooks = selected('PreToolUse', call.agentType, call.toolName);
      if (!hooks.length) return undefined;
      const verdicts = await run(
        'PreToolUse',
        hooks,
        {
          ...common(call, 'PreToolUse'),
          tool_name: call.toolName,
          tool_input: call.toolInput,
          tool_use_id: call.toolUseId,
        },
        signal,
      );
      for (const decision of ['deny', 'ask', 'allow'] as const) {
        const deciding = verdicts.filter((verdict) => verdict.decision === decision);
        if (!deciding.length) continue;
        const reason = joined(deciding.map((verdict) => verdict.reason));
        return reason ? { decision, reason } : { decision };
      }
      return undefined;
    },
    async postToolUse(call, signal) {
      const hooks = selected('PostToolUse', call.agentType, call.toolName);
      if (!hooks.length) return undefined;
      const verdicts = await run(
        'PostToolUse',
        hooks,
        {
          ...common(call, 'PostToolUse'),
          tool_name: call.toolName,
          tool_input: call.toolInput,
          tool_use_id: call.toolUseId,
          tool_response: call.toolResponse,
        },
        signal,
      );
      const block = joined(verdicts.map((verdict) => verdict.block));
      const additionalContext = joined(verdicts.map((verdict) => verdict.additionalContext));
      return { ...(block ? { block } : {}), ...(additionalContext ? { additionalContext } : {}) };
    },
    async subagentStart(call, signal) {
      const hooks = selected('SubagentStart', call.agentType, call.agentType);
      if (!hooks.length) return undefined;
      const verdicts = await run('SubagentStart', hooks, common(call, 'SubagentStart'), signal);
      const additionalContext = joined(verdicts.map((verdict) => verdict.additionalContext));
      return additionalContext ? { additionalContext } : undefined;
    },
    async subagentStop(call, signal) {
      const hooks = selected('SubagentStop', call.agentType, call.agentType);
      if (!hooks.length) return undefined;
      const transcript = await writeTranscript(call.messages);
      try {
        const verdicts = await run(
          'SubagentStop',
          hooks,
          {
            ...common(call, 'SubagentStop'),
            stop_hook_active: call.stopHookActive,
            last_assistant_message: call.lastAssistantMessage,
            agent_transcript_path: transcript.path,
          },
          signal,
        );
        const block = joined(verdicts.map((verdict) => verdict.block));
        return block ? { block } : undefined;
      } finally {
        await transcript.remove();
      }
    },
  };
}

/** The sub-agent's conversation as a JSON-lines file for the hook to read, removed after it ran. */
async function writeTranscript(
  messages: readonly Message[],
): Promise<{ path: string; remove: () => Promise<void> }> {
  const folder = await mkdtemp(join(tmpdir(), 'troupe-hook-'));
  const path = join(folder, `${randomUUID()}.jsonl`);
  await writeFile(path, messages.map((message) => JSON.stringify(message)).join('\n') + '\n', {
    mode: 0o600,
  });
  return { path, remove: () => rm(folder, { recursive: true, force: true }) };
}
