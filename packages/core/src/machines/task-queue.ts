/**
 * A FIFO queue with O(1) push and shift and O(n) removal by id. The supervisor owns it and mutates
 * it in place: copying a 10,000-entry array on every submit would make each submit cost grow with
 * the queue.
 */
export class TaskQueue<TItem extends { taskId: string }> {
  private items: (TItem | undefined)[] = [];
  private head = 0;
  private count = 0;

  get size(): number {
    return this.count;
  }

  push(item: TItem): number {
    this.items.push(item);
    this.count++;
    return this.count;
  }

  shift(): TItem | undefined {
    while (this.head < this.items.length) {
      const item = this.items[this.head];
      this.items[this.head++] = undefined;
      if (item) {
        this.count--;
        this.compact();
        return item;
      }
    }
    return undefined;
  }

  /** Removes and returns the items matching `predicate`, in queue order. */
  remove(predicate: (item: TItem) => boolean): TItem[] {
    const removed: TItem[] = [];
    for (let index = this.head; index < this.items.length; index++) {
      const item = this.items[index];
      if (item && predicate(item)) {
        removed.push(item);
        this.items[index] = undefined;
        this.count--;
      }
    }
    this.compact();
    return removed;
  }

  /** 1-based position of a task, or 0 if it is not queued. */
  position(taskId: string): number {
    let position = 0;
    for (let index = this.head; index < this.items.length; index++) {
      const item = this.items[index];
      if (!item) continue;
      position++;
      if (item.taskId === taskId) return position;
    }
    return 0;
  }

  toArray(): TItem[] {
    return this.items.slice(this.head).filter((item): item is TItem => item !== undefined);
  }

  private compact(): void {
    if (this.count === 0) {
      this.items = [];
      this.head = 0;
    } else if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
  }
}
