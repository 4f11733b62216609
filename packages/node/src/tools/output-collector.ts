const format = (count: number) => count.toLocaleString('en-US');

/**
 * Collects streamed text keeping at most about `2 × max` characters in memory: the first `max`
 * and the last `max`. {@link OutputCollector.text} returns everything when it fits in `max`, and
 * otherwise the first and last halves with a note saying how much was cut.
 */
export class OutputCollector {
  private head = '';
  private tail = '';
  private total = 0;

  constructor(private readonly max: number) {}

  /** Characters received so far. */
  get length(): number {
    return this.total;
  }

  push(text: string): void {
    this.total += text.length;
    let rest = text;
    if (this.head.length < this.max) {
      const room = this.max - this.head.length;
      this.head += rest.slice(0, room);
      rest = rest.slice(room);
      if (rest.length === 0) return;
    }
    this.tail += rest;
    if (this.tail.length > 2 * this.max) this.tail = this.tail.slice(this.tail.length - this.max);
  }

  text(): string {
    if (this.total <= this.max) return this.head;
    const half = Math.floor(this.max / 2);
    const tail = (this.head.slice(this.max) + this.tail).slice(-half);
    const cut = this.total - half - tail.length;
    return `${this.head.slice(0, half)}\n\n[... output truncated: ${format(cut)} of ${format(this.total)} characters cut ...]\n\n${tail}`;
  }
}
