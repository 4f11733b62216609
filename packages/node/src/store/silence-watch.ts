import { performance } from 'node:perf_hooks';
import { readRegularFileSync } from './regular-files.js';

// How long a file another host keeps alive has not changed, as seen from here. A writer on another
// host cannot be asked whether its process runs; it proves it by rewriting its file every
// heartbeat (a counter). Judged by this process's own monotonic clock from the first time it
// looked, so the two hosts' clocks never have to agree.

/** Watches heartbeat files; one per open store. */
export class SilenceWatch {
  private readonly seen = new Map<string, { content: string; since: number }>();

  constructor(private readonly now: () => number = () => performance.now()) {}

  /**
   * For how many ms the file at `path` has kept the same content since this watch first read it
   * (0 at the first look, and whenever it changed); undefined when it cannot be read (gone).
   */
  silentFor(path: string): number | undefined {
    let content: string;
    try {
      content = readRegularFileSync(path);
    } catch {
      this.seen.delete(path);
      return undefined;
    }
    const now = this.now();
    const last = this.seen.get(path);
    if (!last || last.content !== content) {
      this.seen.set(path, { content, since: now });
      return 0;
    }
    return now - last.since;
  }
}
