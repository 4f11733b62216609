import { TroupeError } from '@troupe/core';

/**
 * A timeline that cannot be read. `code` is `PERSISTENCE_VERSION` for a timeline of an unknown
 * version and `PERSISTENCE_CORRUPT` for anything else (not a timeline, a bad line).
 */
export class TimelineError extends TroupeError {
  /** The file or source name the timeline came from. */
  readonly source: string;
  /** 1-based line, when the problem is on one line. */
  readonly line: number | undefined;

  constructor(
    message: string,
    where: { source: string; line?: number; code?: 'PERSISTENCE_CORRUPT' | 'PERSISTENCE_VERSION' },
  ) {
    super(where.code ?? 'PERSISTENCE_CORRUPT', message, {
      details: { source: where.source, line: where.line },
    });
    this.source = where.source;
    this.line = where.line;
  }
}
