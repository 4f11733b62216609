export type { TeamEvent, TeamEventType } from './team-events.js';
export type { CreateTeamOptions, TeammateOptions } from './team-options.js';
export { type TeamHandle, Teams } from './team-registry.js';
export type { MemberState, PlanRequest, TeamState } from './team-state.js';
export type {
  TeamConfig,
  TeamMemberConfig,
  TeamMessage,
  TeamResult,
  TeamTask,
  TeamTaskStatus,
  TeamTerminateReason,
} from './team-types.js';
