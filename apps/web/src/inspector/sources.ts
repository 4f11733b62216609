import type { TaskStore } from '@troupe/core';
import {
  describeDifference,
  parseTimeline,
  replayTimeline,
  type Timeline,
  type TimelineHeader,
  type TimelineRecord,
} from '@troupe/inspect';

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
 * whether it reproduced the whole stored snapshot and result (else the first difference, in words).
 */
export async function replayStoredTask(
  store: TaskStore,
  taskId: string,
): Promise<{ timeline: Timeline; exact: boolean; difference?: string }> {
  const { timeline, check } = await replayTimeline(store, taskId);
  return check.first
    ? { timeline, exact: false, difference: describeDifference(check.first) }
    : { timeline, exact: check.exact };
}
