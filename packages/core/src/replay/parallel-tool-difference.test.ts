import { describe, expect, it } from 'vitest';
import type { TaskSnapshotDocument, TaskStore } from '../persistence/types.js';
import { createRuntime } from '../runtime/create-runtime.js';
import { echoTool } from '../runtime/test-fixtures.js';
import { createMemoryStore } from '../store/memory-store.js';
import { manualClock } from '../testing/manual-clock.js';
import { scriptedModel, textReply } from '../testing/scripted-model.js';
import { replayTask } from './replay-task.js';

// Three reads answered in one turn: their results reach the conversation together, at the last
// `tool.finished`. A difference in one of them names that tool's own journal entry.
async function recordParallelReads() {
  const store = createMemoryStore();
  const runtime = createRuntime({
    model: scriptedModel((request) =>
      request.messages.length === 1
        ? {
            content: ['a', 'b', 'c'].map((text) => ({
              type: 'tool_use' as const,
              id: `toolu_${text}`,
              name: 'echo',
              input: { text },
            })),
          }
        : textReply('read all three'),
    ),
    tools: [echoTool],
    agents: [{ name: 'explore', description: 'Reads.', systemPrompt: 'You read.', tools: ['echo'] }],
    clock: manualClock(),
    store,
  });
  const handle = runtime.spawn({ agent: 'explore', prompt: 'Read a, b and c.' });
  await handle.result;
  await runtime.shutdown();
  return { store, id: handle.id };
}

function withToolResult(store: TaskStore, block: number, text: string): TaskStore {
  return Object.assign(Object.create(null), store, {
    async loadSnapshot(taskId: string) {
      const document = structuredClone(await store.loadSnapshot(taskId)) as TaskSnapshotDocument;
      const { messages } = (document.snapshot as { context: { messages: { content: unknown }[] } }).context;
      const results = messages[2]!.content as { type: string; content: unknown }[];
      results[block]!.content = [{ type: 'text', text }];
      return document;
    },
  }) as TaskStore;
}

describe('a replay that differs in one of several parallel tool results', () => {
  it("names that tool's own tool.finished entry, not the turn's last", async () => {
    const { store, id } = await recordParallelReads();
    const { entries } = await store.loadJournal(id);
    const finished = (toolUseId: string) =>
      entries.findIndex(
        (entry) => entry.event.type === 'tool.finished' && entry.event.toolUseId === toolUseId,
      );
    expect(finished('toolu_a')).toBeLessThan(finished('toolu_c'));
    for (const [block, toolUseId] of [
      [0, 'toolu_a'],
      [1, 'toolu_b'],
      [2, 'toolu_c'],
    ] as const) {
      const outcome = await replayTask(withToolResult(store, block, 'something else'), id);
      expect(outcome.matches).toBe(false);
      const index = finished(toolUseId);
      expect(outcome.first?.entry).toEqual({ index, seq: index, type: 'tool.finished' });
      expect(outcome.first?.path).toMatch(new RegExp(`^context\\.messages\\[2\\]\\.content\\[${block}\\]`));
      expect(outcome.differences[0]).toContain(`at journal entry ${index} (tool.finished)`);
    }
  });
});
