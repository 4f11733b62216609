import { describe, expect, it } from 'vitest';
import { textReply } from '../testing/scripted-model.js';
import { fixtureRuntime, settle } from './test-fixtures.js';

describe('shutdown({ keepTasks: true })', () => {
  it('leaves the journal as it was: a deadline or a model call of the stopped runtime journals nothing', async () => {
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => {
      answer = resolve;
    });
    const { runtime, store, clock } = fixtureRuntime(async () => {
      await answered;
      return textReply('too late');
    });
    const { id } = runtime.spawn({ agent: 'explore', prompt: 'slow', limits: { timeoutMs: 10_000 } });
    await settle();
    await runtime.shutdown({ keepTasks: true });
    const before = (await store.loadJournal(id)).entries.map((entry) => entry.event.type);
    expect(before).toEqual(['task.started']);
    // The stopped runtime's model call answers, and its deadline passes.
    answer();
    await settle();
    clock.advance(10_000);
    await settle();
    const after = (await store.loadJournal(id)).entries.map((entry) => entry.event.type);
    expect(after).toEqual(before);
    expect(clock.pending).toBe(0);
  });
});
