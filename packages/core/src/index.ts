// The public API of @troupe/core. Everything a host uses is exported here, by name.
export { type Clock, systemClock } from './clock.js';
export type { AgentDefinition, AgentSource } from './definitions/types.js';
export {
  DefinitionError,
  LimitError,
  ModelError,
  PersistenceError,
  type SerializedError,
  serializeError,
  ToolError,
  TroupeError,
  type TroupeErrorCode,
  type TroupeErrorOptions,
  ValidationError,
} from './errors.js';
export type { ApprovalRequest, RuntimeEventName, RuntimeEvents, TaskEventBase } from './events.js';
export type { OutputCheck, SubagentEvent, ToolCallPlan } from './machines/subagent-events.js';
export { addUsage, blocksOf, textOf, toolUsesOf } from './model/content.js';
export type {
  ContentBlock,
  GenerateOptions,
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
  ToolSpec,
  ToolUseBlock,
  Usage,
} from './model/types.js';
export { createMemoryStore } from './persistence/memory-store.js';
export {
  type JournalEntry,
  SCHEMA_VERSION,
  type StoredTask,
  type StoreWarning,
  type TaskLimits,
  type TaskResult,
  type TaskResultDocument,
  type TaskSnapshotDocument,
  type TaskSpec,
  type TaskStatus,
  type TaskStatusRecord,
  type TaskStore,
  type TerminateReason,
} from './persistence/types.js';
export {
  defineTool,
  type Tool,
  type ToolAccess,
  type ToolConfig,
  type ToolContext,
  type ToolOutput,
} from './tools/define-tool.js';
export { checkToolCall, errorResult, executeToolCall } from './tools/run-tool-call.js';
export {
  assertUniqueToolNames,
  createToolRegistry,
  type ToolRegistry,
  type ToolSelection,
} from './tools/tool-registry.js';
