// Kept apart from the agent-file reader so that checking a definition given in code does not load it.

/** Hook events Claude Code documents (v2.1.240); an agent file's `Stop` runs as `SubagentStop`. */
export const HOOK_EVENTS = [
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
  'PermissionRequest',
  'Notification',
  'UserPromptSubmit',
  'Stop',
  'SubagentStart',
  'SubagentStop',
  'PreCompact',
  'SessionStart',
  'SessionEnd',
] as const;

/** The field that holds what a hook of each type runs. */
export const HOOK_TARGETS = { command: 'command', http: 'url', prompt: 'prompt' } as const;
