import type { Message } from '../model/types.js';

/**
 * What every hook call says about the run it comes from (Claude Code's common hook input, as far
 * as core knows it; a host adds its own, such as the working folder).
 */
export interface HookCallBase {
  /** The run's session key (Claude Code's `session_id`). */
  sessionId: string;
  /** The task id (Claude Code's `agent_id`). */
  agentId: string;
  /** The agent's name (Claude Code's `agent_type`). */
  agentType: string;
  /** 0 for a main agent's run, 1 for a task a main agent started, 2 for a task a sub-agent started, … */
  depth: number;
}

/**
 * What any hook's answer may carry besides its event's own fields (Claude Code's common JSON
 * output). `suppressOutput` has no counterpart: troupe never shows a hook's stdout.
 */
export interface HookOutcomeBase {
  /**
   * `continue: false`: the agent stops. The text is the hook's `stopReason`. A task (or a main
   * agent's run) then ends `cancelled` with the error code `HOOK_STOPPED` and a message naming the
   * hook; on `Stop`/`SubagentStop` it only overrides a block (the agent was stopping anyway).
   */
  stop?: string;
  /** `systemMessage`: for the user, never the model (a `runtime.warning` with code `HOOK_MESSAGE`). */
  systemMessage?: string;
  /** Which hook answered, for messages (`\`./check.sh\` (.claude/settings.json)`). */
  source?: string;
}

/** A tool call about to run: `PreToolUse`. */
export interface PreToolUseCall extends HookCallBase {
  toolName: string;
  toolInput: unknown;
  toolUseId: string;
}

/**
 * A `PreToolUse` hook's answer. `deny` refuses the call (the model sees `reason`); `ask` sends it
 * through the approval policy even where it would have run without (a read tool, an "always
 * allow"); `allow` answers the question the policy would have put to the host, never a denial
 * (a deny rule, a `deny` policy): see `docs/decisions/2026-11-26-hooks-skills-memory.md`.
 * `updatedInput` replaces the call's input (checked against the tool's schema again; the model's
 * own `tool_use` block is left as it was); `additionalContext` reaches the model with the call's result.
 */
export interface PreToolUseOutcome extends HookOutcomeBase {
  decision?: 'allow' | 'deny' | 'ask';
  reason?: string;
  updatedInput?: Record<string, unknown>;
  additionalContext?: string;
}

/** A tool call that finished without error: `PostToolUse`. */
export interface PostToolUseCall extends PreToolUseCall {
  /** The tool's result as text (images left out). */
  toolResponse: string;
}

/** A `PostToolUse` hook's answer: text for the model, added to the tool's result. */
export interface PostToolUseOutcome extends HookOutcomeBase {
  /** The hook objects to what the tool did (Claude Code's `decision: "block"`): the model is told why. */
  block?: string;
  additionalContext?: string;
}

/** A tool call that ran and failed (an error result): `PostToolUseFailure`. */
export interface PostToolUseFailureCall extends PreToolUseCall {
  /** The error the model will read, as text. */
  error: string;
  /** True when the call was interrupted (the runtime stopped while it ran) rather than failing. */
  isInterrupt: boolean;
}

/** A `PostToolUseFailure` hook's answer: text for the model, added to the error result. */
export type PostToolUseFailureOutcome = PostToolUseOutcome;

/** A sub-agent task starting: `SubagentStart`. */
export type SubagentStartCall = HookCallBase;

/** A `SubagentStart` hook's answer: context given to the sub-agent with its prompt. */
export interface SubagentStartOutcome extends HookOutcomeBase {
  additionalContext?: string;
}

/** A sub-agent about to end with a final answer: `SubagentStop` (an agent file's `Stop`). */
export interface SubagentStopCall extends HookCallBase {
  /** The final answer's text. */
  lastAssistantMessage: string;
  /** True when the sub-agent is already going on because a stop hook blocked its previous answer. */
  stopHookActive: boolean;
  /** The sub-agent's conversation so far (what Claude Code writes to `agent_transcript_path`). */
  messages: readonly Message[];
}

/** A `SubagentStop` hook's answer: `block` keeps the sub-agent going, with the reason as its next instruction. */
export interface SubagentStopOutcome extends HookOutcomeBase {
  block?: string;
}

/** A main agent about to end its reply: `Stop` (the same fields as {@link SubagentStopCall}). */
export type StopCall = SubagentStopCall;

/** A `Stop` hook's answer: `block` keeps the main agent going, with the reason as its next instruction. */
export type StopOutcome = SubagentStopOutcome;

/** A user's message to a session's main agent, before the main agent reads it: `UserPromptSubmit`. */
export interface UserPromptSubmitCall extends HookCallBase {
  prompt: string;
}

/**
 * A `UserPromptSubmit` hook's answer: `additionalContext` is given to the main agent with the
 * prompt; `block` stops the run before the model reads the prompt (the reason is for the user).
 */
export interface UserPromptSubmitOutcome extends HookOutcomeBase {
  block?: string;
  additionalContext?: string;
}

/**
 * The points where a host's hooks run (Claude Code's hook events), as async callbacks: a runtime
 * option (`createRuntime({ hooks })`). `@troupe/node`'s `createShellHooks` runs Claude Code's shell
 * hooks through them. Each answer is recorded in the task's journal (in the event it shapes:
 * `tool.hooked`, `tool.finished`, `model.responded`, `task.started`, `hook.stopped`), so replay and
 * restore never call a hook again for a step the journal holds. A callback that throws or returns
 * something unusable is a `runtime.warning` (`HOOK_FAILED`) and counts as no answer. `signal`
 * aborts when the task no longer waits for the answer (cancelled, ended).
 */
export interface RuntimeHooks {
  /**
   * Just before a sub-agent's or main agent's tool call runs (after its input was checked against
   * the tool's schema, before the approval policy); read calls that run together are asked together.
   */
  preToolUse?(call: PreToolUseCall, signal: AbortSignal): Promise<PreToolUseOutcome | undefined>;
  /**
   * Whether `preToolUse` has anything to say about `toolName` for `agentType` (a matcher): a call it
   * does not apply to is planned at once and can run ahead with the read calls of its turn.
   * Undefined: every call is asked about.
   */
  preToolUseApplies?(agentType: string, toolName: string): boolean;
  /** After a tool call returned without error. */
  postToolUse?(call: PostToolUseCall, signal: AbortSignal): Promise<PostToolUseOutcome | undefined>;
  /** After a tool call that ran returned an error result. */
  postToolUseFailure?(
    call: PostToolUseFailureCall,
    signal: AbortSignal,
  ): Promise<PostToolUseFailureOutcome | undefined>;
  /** When a sub-agent task starts (not a main agent's run), before its first model call. */
  subagentStart?(call: SubagentStartCall, signal: AbortSignal): Promise<SubagentStartOutcome | undefined>;
  /** When a sub-agent task answers without tool calls (not a grace turn, not a main agent). */
  subagentStop?(call: SubagentStopCall, signal: AbortSignal): Promise<SubagentStopOutcome | undefined>;
  /** When a session's main agent answers without tool calls (not a grace turn). */
  stop?(call: StopCall, signal: AbortSignal): Promise<StopOutcome | undefined>;
  /** When a session's main agent's run starts with the user's message, before its first model call. */
  userPromptSubmit?(
    call: UserPromptSubmitCall,
    signal: AbortSignal,
  ): Promise<UserPromptSubmitOutcome | undefined>;
}
