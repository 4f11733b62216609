import { type RuntimeEventName, type RuntimeEvents, TASK_EVENT_NAMES } from '@troupe/core';

/** Postgres NOTIFY channel carrying runtime events from workers (and submitters) to every client. */
export const EVENTS_CHANNEL = 'troupe_events';

/**
 * The runtime events a worker forwards to every client (the events a client can listen to): every
 * task event but `task.queued`, which the submitter sends itself when it queues (`submitTasks`).
 */
export const CLUSTER_EVENTS: readonly RuntimeEventName[] = TASK_EVENT_NAMES.filter(
  (name) => name !== 'task.queued',
);
/** Postgres NOTIFY channel carrying cancellations and approval decisions to the workers. */
export const CONTROL_CHANNEL = 'troupe_control';
/** The DBOS queue every task workflow is enqueued on. */
export const TASK_QUEUE = 'troupe_tasks';
/**
 * The DBOS queue a team's own workflow is enqueued on: it runs no model, so it counts against no
 * concurrency limit (its members' spells are tasks of {@link TASK_QUEUE}, and count there).
 */
export const TEAM_QUEUE = 'troupe_teams';
/** The DBOS workflow that runs one task. */
export const TASK_WORKFLOW = 'troupe.runTask';
/** The application version every troupe worker runs (DBOS dequeues only matching workflows). */
export const APPLICATION_VERSION = 'troupe-cluster-1';

/** One event on {@link EVENTS_CHANNEL}. */
export interface EventMessage<TName extends RuntimeEventName = RuntimeEventName> {
  name: TName;
  event: RuntimeEvents[TName];
  /** The event was too large for a notification: only its common fields came through. */
  truncated?: true;
}

/** One message on {@link CONTROL_CHANNEL}. */
export type ControlMessage =
  | { type: 'cancel'; taskId: string; reason?: string }
  | { type: 'cancelSession'; sessionKey: string; reason?: string }
  /** `worker`: the worker that had claimed the task when it was sent (none while it was queued). */
  | { type: 'steer'; taskId: string; text: string; worker?: string }
  | { type: 'approve'; approvalId: string; always?: boolean }
  | { type: 'deny'; approvalId: string; reason?: string }
  | TeamCallMessage
  | TeamReplyMessage;

/** The team tools that change a team's state: run by the worker hosting the team. */
export type TeamCallMethod = 'sendMessage' | 'createTask' | 'updateTask' | 'requestPlanApproval';

/**
 * A member's team tool call, from the worker running its spell to the worker hosting its team.
 * `key` (`<spell id>:<tool_use id>`) makes it idempotent: sent again, it is answered again, once.
 */
export interface TeamCallMessage {
  type: 'teamCall';
  teamId: string;
  /** The worker waiting for the reply. */
  worker: string;
  callId: string;
  method: TeamCallMethod;
  member: string;
  key: string;
  input: unknown;
}

/**
 * The hosting worker's answer to a {@link TeamCallMessage}, sent with the journal write of the
 * change it made (one transaction). No `answer` when too long for a notification: the caller reads
 * it from the team's journal (`answers[key]`).
 */
export interface TeamReplyMessage {
  type: 'teamReply';
  worker: string;
  callId: string;
  answer?: string;
  error?: string;
}

/** Postgres refuses notifications of 8,000 bytes or more. */
const MAX_PAYLOAD = 7_900;
/** The largest {@link ControlMessage} a notification carries (its JSON, in bytes). */
export const MAX_CONTROL_BYTES = MAX_PAYLOAD;

/**
 * Encodes an event for NOTIFY. An event too large for a notification (a long tool input, a long
 * result) keeps only its task fields and is marked `truncated`; the store has the rest.
 */
export function encodeEvent(name: RuntimeEventName, event: object): string {
  const text = JSON.stringify({ name, event });
  if (Buffer.byteLength(text) <= MAX_PAYLOAD) return text;
  const { taskId, agent, sessionKey, at, toolCalls, turns, elapsedMs, tokens, depth } = event as Record<
    string,
    unknown
  >;
  const description = String((event as { description?: unknown }).description ?? '').slice(0, 200);
  const small = { taskId, agent, sessionKey, description, at, toolCalls, turns, elapsedMs, tokens, depth };
  return JSON.stringify({ name, event: small, truncated: true });
}
