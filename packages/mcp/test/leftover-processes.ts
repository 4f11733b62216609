import { afterEach } from 'vitest';

/**
 * Pids to kill (SIGKILL) after each test, so that what a failing test leaves does not run on:
 * call at the top of a test file (it registers the `afterEach`) and push the pids onto the array.
 */
export function killedAfterEach(): number[] {
  const pids: number[] = [];
  afterEach(() => {
    for (const pid of pids.splice(0)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Gone, as it should be.
      }
    }
  });
  return pids;
}
