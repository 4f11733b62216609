// The public API of @troupe/inspect (browser-safe). Node-only parts: `@troupe/inspect/node`;
// statechart layout: `@troupe/inspect/chart`.

export type { RelayReplay, RelayStoreError, RelayTaskList } from './relay/store-protocol.js';
export { type FollowTaskOptions, followStoredTask, type TaskFollower } from './replay/follow-task.js';
export {
  type ReplayTeamTimeline,
  type ReplayTeamTimelineOptions,
  replayTeamTimeline,
} from './replay/replay-team-timeline.js';
export { type ReplayTimeline, type ReplayTimelineOptions, replayTimeline } from './replay/replay-timeline.js';
export { applyPatch } from './timeline/context-patch.js';
export { estimateCost, type ModelPrice, type TokenCounts } from './timeline/model-cost.js';
export {
  type ActorState,
  activePaths,
  buildTimelineModel,
  type ContextChange,
  type Frame,
  formatStateValue,
  type LoggedEvent,
  type TakenTransition,
  type TimelineModel,
} from './timeline/player.js';
export { recordTeams, type TeamEventSource } from './timeline/record-teams.js';
export { createRecorder, type RecorderOptions, type TimelineRecorder } from './timeline/recorder.js';
export {
  type Lane,
  type RunKind,
  type RunNode,
  runLanes,
  runStart,
  runStatus,
  runTree,
} from './timeline/run-tree.js';
export { type TaskTrack, taskTrack } from './timeline/task-track.js';
export {
  type TeamArrow,
  type TeamBoard,
  type TeamChange,
  type TeamLaneMember,
  type TeamMessageKind,
  type TeamSpell,
  type TeamTrack,
  teamBoard,
  teamStateAt,
  teamTracks,
} from './timeline/team-track.js';
export { TimelineError } from './timeline/timeline-error.js';
export { formatTimeline, parseTimeline, timelineLine } from './timeline/timeline-jsonl.js';
export { type StepTrace, stepTrace, type TraceBlock, type TraceMessage } from './timeline/trace.js';
export {
  type ActionRecord,
  type ActorRecord,
  type ContextPatch,
  type DefinitionRecord,
  type EventRecord,
  type MicrostepRecord,
  type RecordedSnapshot,
  type SnapshotRecord,
  type TeamRecord,
  TIMELINE_FORMAT,
  TIMELINE_VERSION,
  type Timeline,
  type TimelineHeader,
  type TimelineRecord,
} from './timeline/types.js';
export { createRedactor, REDACTED, type Redactor, type RedactorOptions } from './wire/redact.js';
export { toJsonValue } from './wire/to-json-value.js';
