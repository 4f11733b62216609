import { describe, expect, it } from 'vitest';
import { TimelineError } from '../src/timeline/timeline-error.js';
import { formatTimeline, parseTimeline } from '../src/timeline/timeline-jsonl.js';
import { scenarios } from './fixtures.js';

describe('parseTimeline', () => {
  it('refuses a file that is not a timeline, naming it and the line', () => {
    expect(() => parseTimeline('{"v":1,"taskId":"t_1","event":"task.queued"}\n', 'tasks.jsonl')).toThrow(
      /tasks\.jsonl is not a troupe timeline/,
    );
    expect(() => parseTimeline('hello', 'notes.txt')).toThrow(TimelineError);
    expect(() => parseTimeline('', 'empty.jsonl')).toThrow(/empty\.jsonl is not a troupe timeline/);
  });

  it('refuses an unknown version with PERSISTENCE_VERSION', () => {
    const text =
      '{"format":"troupe.timeline","v":2,"statelyVersion":"0.7.2","createdAt":0,"source":{"kind":"live"}}\n';
    try {
      parseTimeline(text, 'new.timeline.jsonl');
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(TimelineError);
      expect((error as TimelineError).code).toBe('PERSISTENCE_VERSION');
      expect((error as TimelineError).message).toMatch(
        /new\.timeline\.jsonl is a timeline of version 2; this troupe reads version 1/,
      );
    }
  });

  it('names the line of a record that is not one, and drops only a torn last line', async () => {
    const run = await scenarios.goal!();
    const text = formatTimeline(run.timeline);
    const lines = text.split('\n');
    const broken = [...lines.slice(0, 3), '{"type":"hello"}', ...lines.slice(3)].join('\n');
    expect(() => parseTimeline(broken, 'run.jsonl')).toThrow(/run\.jsonl:4: not a timeline record/);
    const garbage = [...lines.slice(0, 3), 'not json', ...lines.slice(3)].join('\n');
    expect(() => parseTimeline(garbage, 'run.jsonl')).toThrow(/run\.jsonl:4: the line is not JSON/);
    const torn = text.slice(0, text.length - 15);
    expect(parseTimeline(torn, 'run.jsonl').records).toEqual(run.timeline.records.slice(0, -1));
  });
});
