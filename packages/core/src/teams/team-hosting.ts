// What a cluster worker needs to host a team and to reach one another worker hosts
// (`@troupe/postgres`'s cluster): loaded on first use through `loadTeamHosting` of
// `@troupe/core/internal`, like every team module (the first bundle of a browser app does not carry it).

export { idsInText } from './mailbox.js';
export {
  describeTask,
  describeTaskList,
  findTask,
  type TaskCreateInput,
  type TaskUpdateInput,
} from './task-list.js';
export { Team } from './team.js';
export {
  teamConfigOf,
  teamEventsOf,
  teamResultOf,
  teamSpec,
  teamTaskResult,
} from './team-documents.js';
export type { TeamEvent } from './team-events.js';
export { teamConfigFrom } from './team-options.js';
export type { TeamAccess, Teams } from './team-registry.js';
export type { TeamRuntime } from './team-runtime.js';
export { applyTeamEvent, initialTeamState, type TeamState } from './team-state.js';
export type { SendMessageInput, TeamToolTarget } from './team-tools.js';
export type { TeamConfig, TeamResult } from './team-types.js';
