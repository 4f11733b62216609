import { describe, expect, it } from 'vitest';
import { emptyQueue, itemsOf, pushed, shifted, type TaskQueue, without } from './task-queue.js';

const fill = (count: number, from = 0): TaskQueue<number> => {
  let queue = emptyQueue<number>();
  for (let item = from; item < from + count; item++) queue = pushed(queue, item);
  return queue;
};

describe('task queue', () => {
  it('is first in, first out across chunk boundaries, with pushes between shifts', () => {
    let queue = fill(300);
    const model = Array.from({ length: 300 }, (_, i) => i);
    for (let round = 0; round < 700; round++) {
      if (round % 3 === 0) {
        queue = pushed(queue, 300 + round);
        model.push(300 + round);
      }
      const [item, rest] = shifted(queue);
      expect(item).toBe(model.shift());
      queue = rest;
      expect([...itemsOf(queue)]).toEqual(model);
      expect(queue.size).toBe(model.length);
    }
    expect(model).toEqual([]);
    expect(shifted(queue)).toEqual([undefined, queue]);
  });

  it('never changes a queue it was given: every earlier version still reads as it was', () => {
    const versions: TaskQueue<number>[] = [emptyQueue()];
    for (let item = 0; item < 400; item++) versions.push(pushed(versions.at(-1)!, item));
    for (let step = 0; step < 150; step++) versions.push(shifted(versions.at(-1)!)[1]);
    versions.push(pushed(versions.at(-1)!, 999));
    versions.forEach((version, index) => {
      const expected =
        index <= 400
          ? Array.from({ length: index }, (_, i) => i)
          : Array.from(
              { length: 400 - Math.min(index - 400, 150) },
              (_, i) => i + Math.min(index - 400, 150),
            );
      if (index === versions.length - 1) expected.push(999);
      expect([...itemsOf(version)]).toEqual(expected);
      expect(version.size).toBe(expected.length);
    });
  });

  it('removes matching items in order and keeps the rest in order', () => {
    let queue = fill(500);
    for (let step = 0; step < 70; step++) queue = shifted(queue)[1];
    const [removed, kept] = without(queue, (item) => item % 7 === 0);
    expect(removed).toEqual(Array.from({ length: 500 }, (_, i) => i).filter((i) => i >= 70 && i % 7 === 0));
    expect([...itemsOf(kept)]).toEqual(
      Array.from({ length: 500 }, (_, i) => i).filter((i) => i >= 70 && i % 7 !== 0),
    );
    expect(kept.size).toBe([...itemsOf(kept)].length);
    expect(without(kept, () => false)[1]).toBe(kept);
  });
});
