// @troupe/core/internal: what troupe's own packages (@troupe/node, @troupe/anthropic, @troupe/mcp,
// @troupe/inspect, @troupe/postgres, @troupe/browser) need beyond the public API. No stability
// promise: names here change or go without notice. Apps use `@troupe/core` (and `./store`,
// `./testing`).
export { systemClock } from '../clock.js';
export { checkFinalAnswer } from '../definitions/check-final-answer.js';
export { compileJsonSchema } from '../definitions/compile-json-schema.js';
export { parseAgentSource } from '../definitions/parse-agent-source.js';
export { serializeError } from '../errors.js';
export { MAX_HOOK_TEXT_CHARS } from '../hooks/hook-answers.js';
export { subagentMachine } from '../machines/subagent-machine.js';
export { supervisorMachine } from '../machines/supervisor-machine.js';
export { MAX_MEMORY_CHARS, MAX_MEMORY_LINES, memoryScopeOf } from '../memory/agent-memory.js';
export { abortError, isAbortError, raceAbort } from '../model/abort.js';
export { IMAGE_MEDIA_TYPES, isImageBlock } from '../model/tool-result-content.js';
export { suggestCommandRule } from '../permissions/suggest-command-rule.js';
export {
  feedJournal,
  type JournalFeed,
  type JournalFeedOptions,
} from '../persistence/task-documents.js';
export { isTeamTask } from '../persistence/task-facts.js';
export { createRedactor, REDACTED, type Redactor, type RedactorOptions } from '../redaction/redactor.js';
export { type FollowUpRuntime, followUp } from '../runtime/follow-up.js';
export { prepareTask, type TaskPlanner } from '../runtime/prepare-task.js';
export { type StoredTaskRunner, storedTaskRunnerOf } from '../runtime/stored-task-runner.js';
export {
  storedTaskInfo,
  type TaskFacts,
  type TaskProgress,
  taskEventBase,
  taskInfoOf,
} from '../runtime/task-info.js';
export { taskPlannerOf } from '../runtime/task-planner-of.js';
export { cancelledBeforeStart, corruptBeforeRestore } from '../runtime/task-results.js';
export {
  loadTeamHosting,
  type TeamRegistryAccess,
  teamRegistryOf,
} from '../runtime/team-registry-of.js';
export { MAX_SKILL_CHARS, skillsOf } from '../skills/skill.js';
export { teamConfigOf, teamEventsOf } from '../teams/team-documents.js';
export type { TeamAccess } from '../teams/team-registry.js';
export type { TeamRuntime } from '../teams/team-runtime.js';
export { applyTeamEvent, initialTeamState } from '../teams/team-state.js';
export { mcpToolName, sanitiseMcpName } from '../tools/mcp-names.js';
