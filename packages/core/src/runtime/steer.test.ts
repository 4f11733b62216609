import { describe, expect, it } from 'vitest';
import { TroupeError, ValidationError } from '../errors.js';
import type { ModelRequest } from '../model/types.js';
import { replayTask } from '../replay/replay-task.js';
import { textReply, toolReply } from '../testing/scripted-model.js';
import { fixtureRuntime, settle, turnOf } from './test-fixtures.js';

const lastUserText = (request: ModelRequest) => JSON.stringify(request.messages[request.messages.length - 1]);

/** A model whose first turn waits until `release` is called, so a test can steer mid-call. */
function gatedModel(answer: (request: ModelRequest) => ReturnType<typeof textReply>) {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  const requests: ModelRequest[] = [];
  const script = async (request: ModelRequest) => {
    requests.push(request);
    if (requests.length === 1) await gate;
    return answer(request);
  };
  return { script, requests, release: () => release() };
}

describe('runtime.steer', () => {
  it('gives a running task the message with its next tool results; the journal replays it', async () => {
    const model = gatedModel((request) =>
      turnOf(request) === 1 ? toolReply('echo', { text: 'a' }) : textReply(`seen: ${lastUserText(request)}`),
    );
    const { runtime, store } = fixtureRuntime(model.script);
    const { id, result } = runtime.spawn({ agent: 'explore', prompt: 'Find auth' });
    await settle();
    runtime.steer(id, 'Look in src/auth only.');
    model.release();
    const final = await result;
    expect(final.status).toBe('completed');
    expect(model.requests).toHaveLength(2);
    const second = model.requests[1]!;
    expect(lastUserText(second)).toContain('tool_result');
    expect(lastUserText(second)).toContain('Look in src/auth only.');
    const journal = (await store.loadJournal(id)).entries.map((entry) => entry.event.type);
    expect(journal).toContain('task.steered');
    const replay = await replayTask(store, id);
    expect(replay.matches).toBe(true);
    expect(replay.snapshot.context.messages).toEqual(
      second.messages.concat([
        {
          role: 'assistant',
          content: final.output === undefined ? [] : [{ type: 'text', text: String(final.output) }],
        },
      ]),
    );
  });

  it('a task that answers while a message waits gets one more turn to read it', async () => {
    const model = gatedModel((request) => textReply(`answer ${turnOf(request)}: ${lastUserText(request)}`));
    const { runtime } = fixtureRuntime(model.script);
    const { id, result } = runtime.spawn({ agent: 'explore', prompt: 'Summarise' });
    await settle();
    runtime.steer(id, 'Also list the open questions.');
    model.release();
    const final = await result;
    expect(model.requests).toHaveLength(2);
    expect(final.turns).toBe(2);
    expect(String(final.output)).toContain('Also list the open questions.');
  });

  it('a queued task gets the message with its prompt', async () => {
    const requests: ModelRequest[] = [];
    const { runtime } = fixtureRuntime(
      (request) => {
        requests.push(request);
        return textReply('ok');
      },
      { limits: { maxConcurrent: 1 } },
    );
    const first = runtime.spawn({ agent: 'explore', prompt: 'one' });
    const second = runtime.spawn({ agent: 'explore', prompt: 'two' });
    expect(runtime.get(second.id)?.status).toBe('queued');
    runtime.steer(second.id, 'Be brief.');
    await first.result;
    await second.result;
    expect(JSON.stringify(requests[1]!.messages)).toContain('Be brief.');
  });

  it('refuses an unknown task, an ended task and an empty message, clearly', async () => {
    const { runtime } = fixtureRuntime([textReply('done')]);
    const { id, result } = runtime.spawn({ agent: 'explore', prompt: 'x' });
    await result;
    expect(() => runtime.steer('t_nope', 'hi')).toThrow(TroupeError);
    expect(() => runtime.steer('t_nope', 'hi')).toThrow(/no task "t_nope"/);
    try {
      runtime.steer(id, 'too late');
      expect.unreachable();
    } catch (error) {
      expect((error as TroupeError).code).toBe('TASK_ENDED');
    }
    expect(() => runtime.steer(id, '  ')).toThrow(ValidationError);
  });

  it('the main agent steers a background task with message_task', async () => {
    const model = gatedModel((request) => textReply(`done: ${lastUserText(request)}`));
    const { runtime } = fixtureRuntime(model.script);
    const { id, result } = runtime.spawn({ agent: 'explore', prompt: 'Index the repo', background: true });
    await settle();
    const tool = runtime.mainTools().find((candidate) => candidate.name === 'message_task')!;
    const answer = await tool.execute({ task_id: id, message: 'Skip node_modules.' }, {
      signal: new AbortController().signal,
      taskId: 'main',
      agent: 'main',
    } as never);
    expect(answer).toContain(`Message sent to task ${id}`);
    model.release();
    expect(String((await result).output)).toContain('Skip node_modules.');
    expect(
      await tool.execute({ task_id: id, message: 'again' }, {
        signal: new AbortController().signal,
      } as never),
    ).toMatch(/already ended/);
  });
});
