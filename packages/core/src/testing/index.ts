export { isGraceRequest } from './grace-request.js';
export { type ManualClock, manualClock } from './manual-clock.js';
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
