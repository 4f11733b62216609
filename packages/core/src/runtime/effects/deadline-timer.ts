import type { Clock } from '../../clock.js';

/**
 * The deadline effect: one timer, armed for the deadline the task's state names (re-armed only
 * when it changes), cleared when the state names none. When it fires, `passed` gets the time to
 * record (never before the deadline).
 */
export class DeadlineTimer {
  private timer: unknown;
  private at = 0;

  constructor(
    private readonly clock: Clock,
    private readonly passed: (at: number) => void,
  ) {}

  /** Arms the timer for `deadline`, or clears it when `deadline` is undefined. */
  arm(deadline: number | undefined): void {
    if (deadline === undefined) {
      this.clear();
      return;
    }
    if (this.timer !== undefined && this.at === deadline) return;
    this.clear();
    this.at = deadline;
    const delay = Math.max(0, deadline - this.clock.now());
    this.timer = this.clock.setTimeout(() => {
      this.timer = undefined;
      this.passed(Math.max(this.clock.now(), deadline));
    }, delay);
  }

  clear(): void {
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer);
    this.timer = undefined;
    this.at = 0;
  }
}
