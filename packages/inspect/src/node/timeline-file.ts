import { appendFileSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { TimelineRecorder } from '../timeline/recorder.js';
import { parseTimeline, timelineLine } from '../timeline/timeline-jsonl.js';
import type { Timeline } from '../timeline/types.js';

/**
 * Streams a recorder's timeline to a JSON Lines file as it is recorded: the header at once, then
 * each record. Returns the function that stops streaming. The file is replaced if it exists.
 */
export function streamTimelineToFile(recorder: TimelineRecorder, path: string): () => void {
  writeFileSync(path, timelineLine(recorder.header));
  return recorder.subscribe((record) => appendFileSync(path, timelineLine(record)));
}

/** Reads a timeline file. Throws a `TimelineError` naming the file (and line) when it is not one. */
export async function readTimelineFile(path: string): Promise<Timeline> {
  return parseTimeline(await readFile(path, 'utf8'), path);
}
