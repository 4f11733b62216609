import { TimelineError } from './timeline-error.js';
import {
  TIMELINE_FORMAT,
  TIMELINE_VERSION,
  type Timeline,
  type TimelineHeader,
  type TimelineRecord,
} from './types.js';

const RECORD_TYPES = new Set([
  'troupe.definition',
  '@xstate.actor',
  '@xstate.event',
  '@xstate.snapshot',
  '@xstate.microstep',
  '@xstate.action',
  'troupe.team',
]);

/** Records that belong to no actor (no `sessionId`). */
const ACTORLESS = new Set(['troupe.definition', 'troupe.team']);

/** One line of a timeline file (the header or a record), with its newline. */
export function timelineLine(entry: TimelineHeader | TimelineRecord): string {
  return `${JSON.stringify(entry)}\n`;
}

/** A timeline as JSON Lines: the header, then one record per line. */
export function formatTimeline(timeline: Timeline): string {
  return timelineLine(timeline.header) + timeline.records.map(timelineLine).join('');
}

/**
 * Reads a timeline from JSON Lines text. Throws {@link TimelineError} naming `source` and the line
 * when the text is not a timeline, its version is unknown, or a line is not a record. A last line
 * cut short (a recorder killed while writing) is dropped, as it can only be the one being written.
 */
export function parseTimeline(text: string, source = 'timeline'): Timeline {
  const lines = text.replace(/^\uFEFF/, '').split('\n');
  const first = lines[0]?.trim() ?? '';
  let header: unknown;
  try {
    header = JSON.parse(first);
  } catch {
    header = undefined;
  }
  const fields = (header ?? {}) as Partial<TimelineHeader>;
  if (!header || typeof header !== 'object' || fields.format !== TIMELINE_FORMAT)
    throw new TimelineError(
      `${source} is not a troupe timeline: its first line must be a header with "format": "${TIMELINE_FORMAT}" (record one with \`troupe --inspect\`, \`troupe replay ID --save FILE\` or createRecorder).`,
      { source, line: 1 },
    );
  if (fields.v !== TIMELINE_VERSION)
    throw new TimelineError(
      `${source} is a timeline of version ${JSON.stringify(fields.v)}; this troupe reads version ${TIMELINE_VERSION}.`,
      { source, line: 1, code: 'PERSISTENCE_VERSION' },
    );
  const records: TimelineRecord[] = [];
  for (let index = 1; index < lines.length; index++) {
    const line = lines[index]!.trim();
    if (!line) continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      const last = lines.slice(index + 1).every((rest) => rest.trim() === '');
      if (last && !text.endsWith('\n')) break;
      throw new TimelineError(`${source}:${index + 1}: the line is not JSON.`, { source, line: index + 1 });
    }
    const record = value as { type?: unknown; sessionId?: unknown };
    if (
      !value ||
      typeof value !== 'object' ||
      typeof record.type !== 'string' ||
      !RECORD_TYPES.has(record.type) ||
      (!ACTORLESS.has(record.type) && typeof record.sessionId !== 'string')
    )
      throw new TimelineError(
        `${source}:${index + 1}: not a timeline record (expected "type" one of ${[...RECORD_TYPES].join(', ')}, with a "sessionId" unless it is a definition or a team record).`,
        { source, line: index + 1 },
      );
    records.push(value as TimelineRecord);
  }
  return { header: header as TimelineHeader, records };
}
