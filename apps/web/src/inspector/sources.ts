import type { TaskStore } from '@troupe/core';
import {
  parseTimeline,
  type RelayReplay,
  type RelayStoreError,
  type RelayTaskList,
  replayTeamTimeline,
  replayTimeline,
  type Timeline,
  type TimelineHeader,
  type TimelineRecord,
} from '@troupe/inspect';

/** A replayed task: its timeline, and whether it reproduced the stored run (else the first difference). */
export interface ReplayShown {
  timeline: Timeline;
  exact: boolean;
  difference?: string;
  warnings?: string[];
  /** System prompts by task id, from the store (a replay's timeline does not carry them). */
  systems?: Record<string, string>;
  /** The task and step the replayed task was forked from (`runtime.fork`), if it is a fork. */
  forkedFrom?: { taskId: string; step: number };
}

/**
 * Follows a live timeline from the local relay (`troupe --inspect`) over server-sent events.
 * `onChange` gets the whole timeline so far, at most every 100 ms. Returns a stop function.
 */
export function followRelay(
  url: string,
  onChange: (timeline: Timeline) => void,
  onStatus: (status: 'live' | 'disconnected') => void,
): () => void {
  const source = new EventSource(url);
  let header: TimelineHeader | undefined;
  let records: TimelineRecord[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  const flush = () => {
    timer = undefined;
    if (header) onChange({ header, records: [...records] });
  };
  source.onmessage = (message) => {
    const data = JSON.parse(String(message.data)) as TimelineHeader | TimelineRecord;
    if ('format' in data) {
      // A (re)connection starts with the header and sends the whole timeline again.
      header = data;
      records = [];
    } else records.push(data);
    timer ??= setTimeout(flush, 100);
  };
  source.onopen = () => onStatus('live');
  source.onerror = () => onStatus('disconnected');
  return () => {
    if (timer) clearTimeout(timer);
    source.close();
  };
}

/** Reads a timeline file the user picked. Throws a `TimelineError` naming it when it is not one. */
export async function openTimelineFile(file: File): Promise<Timeline> {
  return parseTimeline(await file.text(), file.name);
}

/**
 * Replays a stored task from the app's store (no model, no tools) and returns its timeline, and
 * whether it reproduced the whole stored snapshot and result (else the first difference, in words),
 * with the task's system prompt from its stored spec. A team is replayed with all its spells.
 */
export async function replayStoredTask(store: TaskStore, taskId: string): Promise<ReplayShown> {
  const spec = (await store.getTask(taskId))?.spec;
  if (spec?.team && spec.team.member === undefined) {
    // An agent team: its journal and every member's spell, in one timeline.
    const { timeline, outcome } = await replayTeamTimeline(store, taskId);
    const systems: Record<string, string> = {};
    for (const spell of outcome.spells) {
      const system = (await store.getTask(spell.taskId))?.spec.system;
      if (system) systems[spell.taskId] = system;
    }
    return outcome.differences[0]
      ? { timeline, exact: false, difference: outcome.differences[0], systems }
      : { timeline, exact: outcome.matches, systems };
  }
  const { timeline, outcome } = await replayTimeline(store, taskId);
  const systems = spec?.system ? { systems: { [taskId]: spec.system } } : {};
  const forked = spec?.forkedFrom ? { forkedFrom: spec.forkedFrom } : {};
  return outcome.differences[0]
    ? { timeline, exact: false, difference: outcome.differences[0], ...systems, ...forked }
    : { timeline, exact: outcome.matches, ...systems, ...forked };
}

/**
 * The tasks of the CLI's store, when the relay that served this page has one (`troupe replay
 * --inspect`, `troupe --inspect`); undefined otherwise (another server, or no store).
 */
export async function relayStoreTasks(): Promise<RelayTaskList | undefined> {
  try {
    const response = await fetch('/store/tasks', { cache: 'no-store' });
    if (!response.ok || !response.headers.get('content-type')?.startsWith('application/json'))
      return undefined;
    return (await response.json()) as RelayTaskList;
  } catch {
    return undefined;
  }
}

/**
 * Has the CLI replay a task of its store (the relay's process reads the files: no model, no tools)
 * and reads the timeline it answers. Throws an error in words when the CLI cannot replay it, or
 * when what came back is not a timeline.
 */
export async function replayRelayTask(taskId: string): Promise<ReplayShown> {
  const response = await fetch(`/store/tasks/${encodeURIComponent(taskId)}/replay`, { cache: 'no-store' });
  let body: RelayReplay | RelayStoreError;
  try {
    body = (await response.json()) as RelayReplay | RelayStoreError;
  } catch {
    throw new Error(
      `The relay did not answer a replay of ${taskId} (HTTP ${response.status}): it has no task store.`,
    );
  }
  if ('error' in body) throw new Error(body.error);
  const timeline = parseTimeline(body.timeline, `the replay of ${taskId} from the relay`);
  return {
    timeline,
    exact: body.exact,
    ...(body.difference ? { difference: body.difference } : {}),
    warnings: body.warnings,
  };
}
