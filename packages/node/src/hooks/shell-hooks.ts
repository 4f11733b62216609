import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { HookCallBase, Message, ModelAdapter, PreToolUseCall, RuntimeHooks } from '@troupe/core';
import { bashEnvironment } from '../tools/bash-environment.js';
import { type HookConfig, type HookEventName, matcherSelects } from './hook-config.js';
import type { HookVerdict } from './hook-output.js';
import { runHook, type SourcedVerdict } from './run-hook.js';

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
  /** Seconds a hook may run when it names no `timeout`. Default 60 (a prompt hook: 30). */
  defaultTimeoutSeconds?: number;
  /** The most characters of a hook's stdout and of its stderr read (each). Default 30,000. */
  maxOutputChars?: number;
  /**
   * The model `prompt` hooks ask, and the model id they ask for when they name none. Without it a
   * prompt hook is a warning and no answer.
   */
  promptHooks?: { model: ModelAdapter; modelId: string };
  /**
   * URL patterns (`*` matches any run of characters) `http` hooks may POST to. Default: loopback
   * URLs only (`http://localhost…`, `http://127.0.0.1…`, `http://[::1]…`). A hook whose URL no
   * pattern allows is a warning and no answer.
   */
  allowedHttpHookUrls?: readonly string[];
  /** Told about hooks that failed, timed out or printed what cannot be read (they count as no answer). */
  onWarning?: (message: string) => void;
}

/**
 * Claude Code's hooks as troupe's {@link RuntimeHooks}: for each hook point, the matching hooks of
 * the settings and of the agent's own file run (in parallel) with the event's JSON — `command`
 * hooks on stdin, `http` hooks as a POST body, `prompt` hooks in a single model call — and their
 * answers are combined (a denial wins over `ask`, `ask` over `allow`; blocks, added context and
 * messages are joined; the first `updatedInput` and the first `continue: false` count). Each
 * command runs in its own process group, killed at its timeout, with its output capped.
 */
export function createShellHooks(options: ShellHooksOptions): RuntimeHooks {
  const env = { ...bashEnvironment(options.passEnv ?? []), CLAUDE_PROJECT_DIR: options.cwd };
  const warn = options.onWarning ?? (() => {});
  const settings = {
    cwd: options.cwd,
    env,
    defaultTimeoutSeconds: options.defaultTimeoutSeconds ?? 60,
    maxOutputChars: options.maxOutputChars ?? 30_000,
    ...(options.promptHooks ? { promptHooks: options.promptHooks } : {}),
    allowedHttpHookUrls: options.allowedHttpHookUrls,
  };
  const selected = (event: HookEventName, agentType: string, name: string) => {
    const own = options.agentHooks?.(agentType) ?? {};
    // An agent file's `Stop` (read as `SubagentStop`) is its `Stop` when it runs as a main agent.
    const ownEntries = event === 'Stop' ? (own.SubagentStop ?? []) : (own[event] ?? []);
    return [...(options.settings ?? []).flatMap((config) => config[event] ?? []), ...ownEntries]
      .filter((entry) => matcherSelects(entry.matcher, name))
      .flatMap((entry) => entry.hooks);
  };
  const run = async (
    event: HookEventName,
    call: HookCallBase,
    name: string,
    fields: Record<string, unknown>,
    signal: AbortSignal,
  ): Promise<SourcedVerdict[] | undefined> => {
    const hooks = selected(event, call.agentType, name);
    if (!hooks.length) return undefined;
    const input = JSON.stringify({
      session_id: call.sessionId,
      cwd: options.cwd,
      permission_mode: 'default',
      hook_event_name: event,
      agent_id: call.agentId,
      agent_type: call.agentType,
      ...fields,
    });
    const verdicts = await Promise.all(hooks.map((hook) => runHook(event, hook, input, settings, signal)));
    for (const verdict of verdicts)
      if (verdict.problem) warn(`${verdict.problem} (from ${verdict.hook.source})`);
    return verdicts;
  };
  /** A tool event's hooks: matched on the tool's name, given its name, input and call id before `fields`. */
  const runForTool = (
    event: 'PreToolUse' | 'PostToolUse' | 'PostToolUseFailure',
    call: PreToolUseCall,
    fields: Record<string, unknown>,
    signal: AbortSignal,
  ) =>
    run(
      event,
      call,
      call.toolName,
      { tool_name: call.toolName, tool_input: call.toolInput, tool_use_id: call.toolUseId, ...fields },
      signal,
    );
  return {
    preToolUseApplies: (agentType, toolName) => selected('PreToolUse', agentType, toolName).length > 0,
    async preToolUse(call, signal) {
      const verdicts = await runForTool('PreToolUse', call, {}, signal);
      if (!verdicts) return undefined;
      const outcome = common(verdicts);
      if (outcome.stop) return outcome;
      for (const decision of ['deny', 'ask', 'allow'] as const) {
        const deciding = verdicts.filter((verdict) => verdict.decision === decision);
        if (!deciding.length) continue;
        outcome.decision = decision;
        const reason = joined(deciding.map((verdict) => verdict.reason));
        if (reason) outcome.reason = reason;
        outcome.source = sourceOf(deciding);
        break;
      }
      const updating = verdicts.filter((verdict) => verdict.updatedInput !== undefined);
      if (updating.length && outcome.decision !== 'deny') {
        if (updating.length > 1)
          warn(
            `${updating.length} PreToolUse hooks gave the ${call.toolName} call a new input; only the first one's is used (${updating[0]!.hook.source}).`,
          );
        outcome.updatedInput = updating[0]!.updatedInput as Record<string, unknown>;
        outcome.source = sourceOf([updating[0]!, ...verdicts.filter((verdict) => verdict.decision)]);
      }
      const additionalContext = joined(verdicts.map((verdict) => verdict.additionalContext));
      if (additionalContext) outcome.additionalContext = additionalContext;
      return outcome;
    },
    async postToolUse(call, signal) {
      const verdicts = await runForTool('PostToolUse', call, { tool_response: call.toolResponse }, signal);
      return verdicts ? withFeedback(verdicts) : undefined;
    },
    async postToolUseFailure(call, signal) {
      const fields = { error: call.error, is_interrupt: call.isInterrupt };
      const verdicts = await runForTool('PostToolUseFailure', call, fields, signal);
      return verdicts ? withFeedback(verdicts) : undefined;
    },
    async subagentStart(call, signal) {
      const verdicts = await run('SubagentStart', call, call.agentType, {}, signal);
      if (!verdicts) return undefined;
      const outcome = withFeedback(verdicts);
      delete outcome.block;
      return outcome;
    },
    subagentStop: (call, signal) => stopped('SubagentStop', call, signal),
    stop: (call, signal) => stopped('Stop', call, signal),
    async userPromptSubmit(call, signal) {
      const verdicts = await run('UserPromptSubmit', call, call.agentType, { prompt: call.prompt }, signal);
      return verdicts ? withFeedback(verdicts) : undefined;
    },
  };

  async function stopped(
    event: 'Stop' | 'SubagentStop',
    call: Parameters<NonNullable<RuntimeHooks['stop']>>[0],
    signal: AbortSignal,
  ) {
    if (!selected(event, call.agentType, call.agentType).length) return undefined;
    const transcript = await writeTranscript(call.messages);
    try {
      const verdicts = await run(
        event,
        call,
        call.agentType,
        {
          stop_hook_active: call.stopHookActive,
          last_assistant_message: call.lastAssistantMessage,
          [event === 'Stop' ? 'transcript_path' : 'agent_transcript_path']: transcript.path,
        },
        signal,
      );
      if (!verdicts) return undefined;
      const outcome = withFeedback(verdicts);
      delete outcome.additionalContext;
      return outcome;
    } finally {
      await transcript.remove();
    }
  }
}

function joined(texts: (string | undefined)[]): string | undefined {
  const kept = texts.filter((text): text is string => typeof text === 'string' && text.trim() !== '');
  return kept.length ? kept.join('\n') : undefined;
}

/** The hooks behind `verdicts`, for messages: `` `command` (file:line)``, joined. */
function sourceOf(verdicts: readonly SourcedVerdict[]): string {
  return [...new Set(verdicts.map((verdict) => `\`${verdict.label}\` (${verdict.hook.source})`))].join(', ');
}

/** `continue: false` (the first one's reason and hook) and the joined `systemMessage`s. */
function common(verdicts: readonly SourcedVerdict[]): {
  stop?: string;
  systemMessage?: string;
  source?: string;
} & Record<string, unknown> {
  const outcome: { stop?: string; systemMessage?: string; source?: string } = {};
  const stopping = verdicts.find((verdict) => verdict.stop !== undefined);
  if (stopping?.stop) {
    outcome.stop = stopping.stop;
    outcome.source = sourceOf([stopping]);
  }
  const message = joined(verdicts.map((verdict) => verdict.systemMessage));
  if (message) outcome.systemMessage = message;
  return outcome;
}

/** An answer of blocks and added context (PostToolUse, PostToolUseFailure, Stop, UserPromptSubmit, …). */
function withFeedback(verdicts: readonly SourcedVerdict[]): {
  block?: string;
  additionalContext?: string;
  stop?: string;
  systemMessage?: string;
  source?: string;
} {
  const outcome: ReturnType<typeof withFeedback> = common(verdicts);
  const blocking = verdicts.filter((verdict: HookVerdict) => verdict.block);
  const block = joined(blocking.map((verdict) => verdict.block));
  if (block) {
    outcome.block = block;
    outcome.source ??= sourceOf(blocking);
  }
  const additionalContext = joined(verdicts.map((verdict) => verdict.additionalContext));
  if (additionalContext) outcome.additionalContext = additionalContext;
  return outcome;
}

/** The conversation as a JSON-lines file for the hook to read, removed after it ran. */
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
