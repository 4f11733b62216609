// The public API of @troupe/core. Everything a host uses is exported here, by name.
export { type Clock, systemClock } from './clock.js';
export { SEED_AGENT_ALIASES } from './definitions/agent-aliases.js';
export {
  AGENT_NAME_MAX_LENGTH,
  AGENT_NAME_PATTERN,
  agentNameFromPath,
  isValidAgentName,
  normaliseAgentName,
} from './definitions/agent-name.js';
export {
  AGENT_SOURCE_PRECEDENCE,
  type AgentProblem,
  type AgentRegistry,
  type AgentRegistryOptions,
  createAgentRegistry,
  type ShadowedAgent,
} from './definitions/agent-registry.js';
export { checkFinalAnswer } from './definitions/check-final-answer.js';
export {
  compileJsonSchema,
  type JsonSchemaCheck,
  type JsonSchemaValidator,
} from './definitions/compile-json-schema.js';
export { MODEL_ALIASES, type ModelAlias } from './definitions/model-alias.js';
export { type ParseAgentOptions, type ParsedAgent, parseAgentFile } from './definitions/parse-agent-file.js';
export { parseAgentJson } from './definitions/parse-agent-json.js';
export { parseAgentSource } from './definitions/parse-agent-source.js';
export {
  DEFAULT_MODEL_IDS,
  type ResolveModelOptions,
  resolveModel,
  resolveModelAlias,
} from './definitions/resolve-model.js';
export {
  compactDescription,
  describeTools,
  TASK_DESCRIPTION_MAX_LENGTH,
  type TaskToolAgents,
  taskToolDescription,
} from './definitions/task-tool-description.js';
export type { AgentDefinition, AgentMcpServer, AgentSource } from './definitions/types.js';
export { AgentDefinitionSchema, validateAgentDefinition } from './definitions/validate-agent-definition.js';
export type { DefinitionWarning, DefinitionWarningKind } from './definitions/warnings.js';
export {
  DefinitionError,
  type DefinitionErrorCode,
  LimitError,
  ModelError,
  type ModelErrorCode,
  PersistenceError,
  type PersistenceErrorCode,
  type SerializedError,
  serializeError,
  ToolError,
  type ToolErrorCode,
  TroupeError,
  type TroupeErrorCode,
  type TroupeErrorOptions,
  ValidationError,
  type ValidationErrorCode,
} from './errors.js';
export type {
  ApprovalRequest,
  RuntimeEventName,
  RuntimeEvents,
  RuntimeWarning,
  TaskEventBase,
} from './events.js';
export type { SessionContext, SessionEvent } from './machines/session-machine.js';
export type { OutputCheck, SubagentEvent, ToolCallPlan } from './machines/subagent-events.js';
export type { TaskOutcome, TurnStep } from './machines/subagent-machine.js';
export {
  type GraceReason,
  type SubagentContext,
  type SubagentInput,
  type SubagentMachine,
  type SubagentOutput,
  statusOf,
  subagentMachine,
} from './machines/subagent-machine.js';
export {
  type QueuedTask,
  type RunningTask,
  type SupervisorContext,
  type SupervisorEvent,
  type SupervisorMachine,
  supervisorMachine,
} from './machines/supervisor-machine.js';
export { abortError, isAbortError, raceAbort } from './model/abort.js';
export { addUsage, blocksOf, textOf, toolUsesOf } from './model/content.js';
export {
  IMAGE_MEDIA_TYPES,
  imagePlaceholder,
  isImageBlock,
  toolResultText,
} from './model/tool-result-content.js';
export type {
  ContentBlock,
  GenerateOptions,
  ImageBlock,
  ImageMediaType,
  JsonSchema,
  Message,
  ModelAdapter,
  ModelDelta,
  ModelRequest,
  ModelResponse,
  StopReason,
  TextBlock,
  ThinkingBlock,
  ToolResultBlock,
  ToolResultContent,
  ToolSpec,
  ToolUseBlock,
  Usage,
} from './model/types.js';
export { permissionRuleMatches } from './permissions/match-permission-rule.js';
export {
  createPermissionPolicy,
  type PermissionPolicy,
  type PermissionPolicyOptions,
} from './permissions/permission-policy.js';
export { type PermissionRule, parsePermissionRule } from './permissions/permission-rule.js';
export { createMemoryStore } from './persistence/memory-store.js';
export {
  FINAL_STATUSES,
  type FinalTaskStatus,
  isFinalStatus,
  TASK_STATUSES,
} from './persistence/statuses.js';
export { transcriptOf } from './persistence/transcript.js';
export {
  type JournalEntry,
  SCHEMA_VERSION,
  type StoredTask,
  type StoreWarning,
  type TaskLimits,
  type TaskPage,
  type TaskQuery,
  type TaskResult,
  type TaskResultDocument,
  type TaskSnapshotDocument,
  type TaskSpec,
  type TaskStatus,
  type TaskStatusRecord,
  type TaskStore,
  type TaskSummary,
  type TerminateReason,
} from './persistence/types.js';
export { firstDifference, type JsonPath, pathText, valueAt } from './replay/first-difference.js';
export { type ReplayOptions, type ReplayOutcome, type ReplayStep, replayTask } from './replay/replay-task.js';
export { type ModelConfig, TASK_TOOL_NAMES } from './runtime/agent-catalog.js';
export { announcement } from './runtime/announcement.js';
export type { ApprovalDecision, ApprovalPolicy } from './runtime/approvals.js';
export { createRuntime, Runtime, type RuntimeOptions } from './runtime/create-runtime.js';
export { FORK_SEPARATOR, forkContext } from './runtime/fork-context.js';
export { formatDuration, formatTokens, taskDescription, taskToolAnswer } from './runtime/main-tools.js';
export { describePrompt, prepareTask } from './runtime/prepare-task.js';
export type { RuntimeLimits } from './runtime/runtime-limits.js';
export {
  DEFAULT_MAIN_PROMPT,
  Session,
  type SessionMessage,
  type SessionOptions,
  type SessionReply,
} from './runtime/session.js';
export type { SpawnOptions } from './runtime/spawn-options.js';
export type { TaskHandle } from './runtime/task-handle.js';
export { cancelledBeforeStart } from './runtime/task-results.js';
export type { TaskInfo, TaskListFilter } from './runtime/task-table.js';
export {
  defineTool,
  type Tool,
  type ToolAccess,
  type ToolConfig,
  type ToolContext,
  type ToolOutput,
} from './tools/define-tool.js';
export { MCP_TOOL_PREFIX, mcpServerOf, mcpToolName, sanitiseMcpName } from './tools/mcp-names.js';
export { checkToolCall, errorResult, executeToolCall } from './tools/run-tool-call.js';
export {
  assertUniqueToolNames,
  createToolRegistry,
  type ToolRegistry,
  type ToolSelection,
} from './tools/tool-registry.js';
export type { ToolSource, ToolSourceAnswer, ToolSourceRequest } from './tools/tool-source.js';
