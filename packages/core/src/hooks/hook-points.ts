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

/** A tool call about to be planned: `PreToolUse`. */
export interface PreToolUseCall extends HookCallBase {
  toolName: string;
  toolInput: unknown;
  toolUseId: string;
}

/**
 * A `PreToolUse` hook's answer. `deny` refuses the call (the model sees `reason`); `ask` sends it
 * through the approval policy even where it would have run without (a read tool, an "always
 * allow"); `allow` answers the question the policy would have put to the host, never a denial
 * (a deny rule, a `deny` policy): see `docs/decisions/2026-11-26-hooks.md`.
 */
export interface PreToolUseOutcome {
  decision?: 'allow' | 'deny' | 'ask';
  reason?: string;
}

/** A tool call that finished without error: `PostToolUse`. */
export interface PostToolUseCall extends PreToolUseCall {
  /** The tool's result as text (images left out). */
  toolResponse: string;
}

/** A `PostToolUse` hook's answer: text for the model, added to the tool's result. */
export interface PostToolUseOutcome {
  /** The hook objects to what the tool did (Claude Code's `decision: "block"`): the model is told why. */
  block?: string;
  additionalContext?: string;
}

/** A sub-agent task starting: `SubagentStart`. */
export type SubagentStartCall = HookCallBase;

/** A `SubagentStart` hook's answer: context given to the sub-agent with its prompt. */
export interface SubagentStartOutcome {
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
export interface SubagentStopOutcome {
  block?: string;
}

/**
 * The points where a host's hooks run (Claude Code's hook events), as async callbacks: a runtime
 * option (`createRuntime({ hooks })`). `@troupe/node`'s `createShellHooks` runs Claude Code's shell
 * hooks through them. Each answer is recorded in the task's journal (in the event it shapes:
 * `model.responded`, `tool.finished`, `task.started`), so replay and restore never call a hook
 * again for a step the journal holds. A callback that throws or returns something unusable is a
 * `runtime.warning` (`HOOK_FAILED`) and counts as no answer. `signal` aborts when the task no
 * longer waits for the answer (cancelled, ended).
 */
export interface RuntimeHooks {
  /** Before a sub-agent's or main agent's tool call is planned. */
  preToolUse?(call: PreToolUseCall, signal: AbortSignal): Promise<PreToolUseOutcome | undefined>;
  /** After a tool call returned without error. */
  postToolUse?(call: PostToolUseCall, signal: AbortSignal): Promise<PostToolUseOutcome | undefined>;
  /** When a sub-agent task starts (not a main agent's run), before its first model call. */
  subagentStart?(call: SubagentStartCall, signal: AbortSignal): Promise<SubagentStartOutcome | undefined>;
  /** When a sub-agent task answers without tool calls (not a grace turn, not a main agent). */
  subagentStop?(call: SubagentStopCall, signal: AbortSignal): Promise<SubagentStopOutcome | undefined>;
}
