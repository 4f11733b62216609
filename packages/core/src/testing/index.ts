// @troupe/core/testing: helpers for tests of code built on troupe (scripted models, a manual clock,
// test tools, scripted team jobs), and the types of core their signatures name, so a test needs no
// other import to type them.
export type { Clock } from '../clock.js';
export type { AgentDefinition } from '../definitions/types.js';
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
} from '../model/types.js';
export type { CreateTeamOptions, TeammateOptions } from '../teams/team-options.js';
export type { Tool, ToolAccess, ToolContext, ToolOutput } from '../tools/define-tool.js';
export { isGraceRequest } from './grace-request.js';
export { type ManualClock, manualClock } from './manual-clock.js';
export { reportTeamCast, reportTeamJob } from './report-team-job.js';
export {
  hang,
  type Script,
  type ScriptedModel,
  type ScriptedReply,
  type ScriptedToolCall,
  scriptedModel,
  textReply,
  toolCallsReply,
  toolReply,
} from './scripted-model.js';
export {
  type ScriptedTeamJob,
  scriptedTeamJob,
  type TeamJobMember,
  type TeamJobPlan,
} from './team-job.js';
export { type EchoAndSaveOptions, type EchoOrSaveCall, echoAndSaveTools } from './test-tools.js';
export { turnOf } from './turn-of.js';
