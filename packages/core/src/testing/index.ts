export { isGraceRequest } from './grace-request.js';
export { type ManualClock, manualClock } from './manual-clock.js';
export {
  type Script,
  type ScriptedModel,
  type ScriptedReply,
  scriptedModel,
  textReply,
  toolReply,
} from './scripted-model.js';
export {
  type ScriptedTeamJob,
  scriptedTeamJob,
  type TeamJobMember,
  type TeamJobPlan,
} from './team-job.js';
