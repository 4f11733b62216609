/**
 * An immutable FIFO queue, kept in the supervisor's context. Items live in chunks of at most
 * {@link CHUNK}; the first chunk is read from `head` on, so a shift copies nothing (and drops the
 * chunk list's first entry once a chunk is used up) and a push copies one chunk and the short list
 * of chunks, never the whole queue: a submit costs about the same with 10,000 tasks waiting as with
 * ten, and every snapshot the inspector keeps still shows the queue as it was.
 */
export interface TaskQueue<TItem> {
  readonly size: number;
  /** Index of the first item in `chunks[0]`. */
  readonly head: number;
  readonly chunks: readonly (readonly TItem[])[];
}

const CHUNK = 128;

/** The empty queue. */
export function emptyQueue<TItem>(): TaskQueue<TItem> {
  return { size: 0, head: 0, chunks: [] };
}

/** A queue with `item` added at the end. */
export function pushed<TItem>(queue: TaskQueue<TItem>, item: TItem): TaskQueue<TItem> {
  const { chunks } = queue;
  const last = chunks[chunks.length - 1];
  let next: (readonly TItem[])[];
  if (last && last.length < CHUNK) {
    next = chunks.slice();
    next[next.length - 1] = [...last, item];
  } else next = [...chunks, [item]];
  return { size: queue.size + 1, head: queue.head, chunks: next };
}

/** The first item and the queue without it (the same queue when it is empty). */
export function shifted<TItem>(queue: TaskQueue<TItem>): [TItem | undefined, TaskQueue<TItem>] {
  const first = queue.chunks[0];
  if (!first) return [undefined, queue];
  const head = queue.head + 1;
  const rest =
    head < first.length
      ? { size: queue.size - 1, head, chunks: queue.chunks }
      : { size: queue.size - 1, head: 0, chunks: queue.chunks.slice(1) };
  return [first[queue.head], rest];
}

/** The items in queue order. */
export function* itemsOf<TItem>(queue: TaskQueue<TItem>): Generator<TItem> {
  for (let index = 0; index < queue.chunks.length; index++) {
    const chunk = queue.chunks[index]!;
    for (let item = index === 0 ? queue.head : 0; item < chunk.length; item++) yield chunk[item]!;
  }
}

/** The items matching `predicate`, in queue order, and the queue without them. */
export function without<TItem>(
  queue: TaskQueue<TItem>,
  predicate: (item: TItem) => boolean,
): [TItem[], TaskQueue<TItem>] {
  const removed: TItem[] = [];
  const kept: TItem[] = [];
  for (const item of itemsOf(queue)) (predicate(item) ? removed : kept).push(item);
  if (!removed.length) return [removed, queue];
  const chunks: TItem[][] = [];
  for (let index = 0; index < kept.length; index += CHUNK) chunks.push(kept.slice(index, index + CHUNK));
  return [removed, { size: kept.length, head: 0, chunks }];
}
