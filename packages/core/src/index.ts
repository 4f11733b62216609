// The public API of @troupe/core: what a host (an app embedding troupe: the CLI, the web app,
// yours) programs against, by name. What troupe's own packages need beyond it is in
// `@troupe/core/internal` (no stability promise); persisted documents are in `@troupe/core/store`.
export type { Clock } from './clock.js';
export { isValidAgentName, normaliseAgentName } from './definitions/agent-name.js';
export {
  type AgentProblem,
  type AgentRegistry,
  type AgentRegistryOptions,
  createAgentRegistry,
  type ShadowedAgent,
} from './definitions/agent-registry.js';
export { type ParseAgentOptions, type ParsedAgent, parseAgentFile } from './definitions/parse-agent-file.js';
export { loadPatternEngine, withPatternEngine } from './definitions/pattern-engine.js';
export { type ResolveModelOptions, resolveModel } from './definitions/resolve-model.js';
export type {
  AgentDefinition,
  AgentEffort,
  AgentHookCommand,
  AgentHookHttp,
  AgentHookMatcher,
  AgentHookPrompt,
  AgentHooks,
  AgentIsolation,
  AgentMemoryScope,
  AgentSource,
  PermissionMode,
} from './definitions/types.js';
export type { DefinitionWarning } from './definitions/warnings.js';
export {
  DefinitionError,
  type DefinitionErrorCode,
  LimitError,
  ModelError,
  type ModelErrorCode,
  PersistenceError,
  type PersistenceErrorCode,
  type SerializedError,
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
export type {
  HookCallBase,
  PostToolUseCall,
  PostToolUseOutcome,
  PreToolUseCall,
  PreToolUseOutcome,
  RuntimeHooks,
  SubagentStartCall,
  SubagentStartOutcome,
  SubagentStopCall,
  SubagentStopOutcome,
} from './hooks/hook-points.js';
export type { SubagentEvent } from './machines/subagent-events.js';
export type { AgentMemory, AgentMemoryRequest } from './memory/agent-memory.js';
export { textOf } from './model/content.js';
export { toolResultText } from './model/tool-result-content.js';
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
export {
  createPermissionPolicy,
  type PermissionPolicy,
  type PermissionPolicyOptions,
} from './permissions/permission-policy.js';
export { type PermissionRule, parsePermissionRule } from './permissions/permission-rule.js';
export {
  FINAL_TASK_EVENTS,
  type FinalTaskEvent,
  isFinalTaskEvent,
  TASK_EVENT_NAMES,
} from './persistence/statuses.js';
export type {
  ForkLink,
  JournalEntry,
  StoredTask,
  StoreWarning,
  TaskLimits,
  TaskPage,
  TaskQuery,
  TaskResult,
  TaskResultDocument,
  TaskSnapshotDocument,
  TaskSpec,
  TaskStatus,
  TaskStatusRecord,
  TaskStore,
  TaskSummary,
  TaskWorkspaceChange,
  TaskWorkspaceOutcome,
  TaskWorkspaceRecord,
  TeamLink,
  TerminateReason,
} from './persistence/types.js';
export { type ReplayOptions, type ReplayOutcome, type ReplayStep, replayTask } from './replay/replay-task.js';
export {
  readTeam,
  replayTeam,
  type StoredTeam,
  type TeamReplayOutcome,
  type TeamSpellReplay,
} from './replay/replay-team.js';
export { type ModelConfig, TASK_TOOL_NAMES } from './runtime/agent-catalog.js';
export type { ApprovalDecision, ApprovalPolicy } from './runtime/approvals.js';
export { createRuntime, Runtime } from './runtime/create-runtime.js';
export type { FollowUpOptions } from './runtime/follow-up.js';
export type { ForkAgentEdit, ForkOptions } from './runtime/fork-task.js';
export { formatDuration, formatTokens } from './runtime/main-tools.js';
export type { RuntimeLimits } from './runtime/runtime-limits.js';
export type { RuntimeOptions } from './runtime/runtime-options.js';
export { Session, type SessionMessage, type SessionOptions, type SessionReply } from './runtime/session.js';
export type { SpawnOptions } from './runtime/spawn-options.js';
export type { Awaitable, TaskClient, TaskHistoryPage } from './runtime/task-client.js';
export type { TaskHandle } from './runtime/task-handle.js';
export { createTaskId } from './runtime/task-id.js';
export type { TaskInfo } from './runtime/task-info.js';
export type { TaskListFilter } from './runtime/task-table.js';
export type { TaskWorkspaces } from './runtime/task-workspaces.js';
export type { Skill } from './skills/skill.js';
export { createMemoryStore } from './store/memory-store.js';
export type {
  CreateTeamOptions,
  MemberState,
  PlanRequest,
  TeamConfig,
  TeamEvent,
  TeamEventType,
  TeamHandle,
  TeamMemberConfig,
  TeamMessage,
  TeammateOptions,
  TeamResult,
  TeamState,
  TeamTask,
  TeamTaskStatus,
  TeamTerminateReason,
} from './teams/index.js';
export {
  defineTool,
  type Tool,
  type ToolAccess,
  type ToolConfig,
  type ToolContext,
  type ToolOutput,
} from './tools/define-tool.js';
export { MCP_TOOL_PREFIX, mcpServerOf } from './tools/mcp-names.js';
export { createToolRegistry, type ToolRegistry, type ToolSelection } from './tools/tool-registry.js';
export type { ToolSource, ToolSourceAnswer, ToolSourceRequest } from './tools/tool-source.js';
export {
  addToTotals,
  DEFAULT_PRICES,
  emptyTotals,
  estimateCost,
  type FullPrice,
  type ModelPrice,
  type PriceTable,
  priceOf,
  type ResultCost,
  resultCost,
  type UsageByModel,
  type UsageQuery,
  type UsageReport,
  type UsageSource,
  type UsageTotals,
  usageReport,
} from './usage/index.js';
