/**
 * An immutable FIFO queue, kept in the supervisor's context. Items live in chunks of at most
 * {@link CHUNK} so that a push or a shift copies one chunk and the (short) list of chunks, never the
 * whole queue: a submit costs the same with 10,000 tasks waiting as with ten, and every snapshot
 * the inspector keeps still shows the queue as it was.
 */
export interface TaskQueue<TItem> {
  readonly size: number;
  readonly chunks: readonly (readonly TItem[])[];
}

const CHUNK = 256;

/** The empty queue. */
export function emptyQueue<TItem>(): TaskQueue<TItem> {
  return { size: 0, chunks: [] };
}

/** A queue with `item` added at the end. */
export function pushed<TItem>(queue: TaskQueue<TItem>, item: TItem): TaskQueue<TItem> {
  const last = queue.chunks[queue.chunks.length - 1];
  const chunks =
    last && last.length < CHUNK ? [...queue.chunks.slice(0, -1), [...last, item]] : [...queue.chunks, [item]];
  return { size: queue.size + 1, chunks };
}

/** The first item and the queue without it (the same queue when it is empty). */
export function shifted<TItem>(queue: TaskQueue<TItem>): [TItem | undefined, TaskQueue<TItem>] {
  const first = queue.chunks[0];
  if (!first) return [undefined, queue];
  const rest = first.length > 1 ? [first.slice(1), ...queue.chunks.slice(1)] : queue.chunks.slice(1);
  return [first[0], { size: queue.size - 1, chunks: rest }];
}

/** The items matching `predicate`, in queue order, and the queue without them. */
export function without<TItem>(
  queue: TaskQueue<TItem>,
  predicate: (item: TItem) => boolean,
): [TItem[], TaskQueue<TItem>] {
  const removed: TItem[] = [];
  const kept: TItem[] = [];
  for (const chunk of queue.chunks) for (const item of chunk) (predicate(item) ? removed : kept).push(item);
  if (!removed.length) return [removed, queue];
  const chunks: TItem[][] = [];
  for (let index = 0; index < kept.length; index += CHUNK) chunks.push(kept.slice(index, index + CHUNK));
  return [removed, { size: kept.length, chunks }];
}
