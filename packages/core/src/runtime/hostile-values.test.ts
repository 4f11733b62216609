// Issue #21, item 4: nothing a tool, a model adapter, an approval policy or a host listener hands
// the runtime may take the process down or reach the journal as something JSON cannot hold. Each
// case here ends in an error tool result, a failed task or a warning; the memory store's journal
// round-trips through JSON unchanged (so a file store would write it too).
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { MAX_MODEL_TEXT_CHARS } from '../model/cap-model-text.js';
import type { ModelAdapter, ModelResponse, ToolResultBlock } from '../model/types.js';
import type { TaskStore } from '../persistence/types.js';
import { replayTask } from '../replay/replay-task.js';
import { createMemoryStore } from '../store/memory-store.js';
import { textReply, toolReply } from '../testing/scripted-model.js';
import { defineTool } from '../tools/define-tool.js';
import type { RuntimeOptions } from './runtime-options.js';
import { fixtureRuntime, hang, settle } from './test-fixtures.js';

function resultOf(messages: { role: string; content: unknown }[]): ToolResultBlock {
  return (messages.at(-1)!.content as ToolResultBlock[])[0]!;
}

/** Every journal entry and the snapshot survive JSON as they are (what a file store needs). */
async function expectPlainJson(store: TaskStore, taskId: string) {
  await store.flush();
  const { entries } = await store.loadJournal(taskId);
  expect(JSON.parse(JSON.stringify(entries))).toEqual(entries);
  const snapshot = await store.loadSnapshot(taskId);
  expect(JSON.parse(JSON.stringify(snapshot))).toEqual(snapshot);
  const replay = await replayTask(store, taskId);
  expect(replay.matches).toBe(true);
}

function cyclic(): Record<string, unknown> {
  const value: Record<string, unknown> = { name: 'loop' };
  value.self = value;
  return value;
}

/** A runtime with one read tool `odd` whose execute is `execute`, answering once then `done`. */
function oddToolRuntime(execute: () => unknown, options: Partial<RuntimeOptions> = {}) {
  const odd = defineTool({
    name: 'odd',
    description: 'Returns or throws something odd',
    access: 'read',
    input: v.object({}),
    execute: execute as () => string,
  });
  const store = createMemoryStore();
  const { runtime, model } = fixtureRuntime([toolReply('odd', {}), textReply('survived')], {
    tools: [odd],
    agents: [{ name: 'explore', description: 'x', systemPrompt: 'x', tools: ['odd'] }],
    store,
    ...options,
  });
  return { runtime, model, store };
}

const hostileThrows: [string, () => unknown][] = [
  ['Object.create(null)', () => Object.create(null)],
  ['a string', () => 'just a string'],
  ['undefined', () => undefined],
  ['a frozen object', () => Object.freeze({ why: 'frozen' })],
  [
    'an Error whose message getter throws',
    () =>
      Object.defineProperty(new Error('x'), 'message', {
        get() {
          throw new Error('getter bites');
        },
      }),
  ],
  [
    'a Proxy that throws on every trap',
    () =>
      new Proxy(
        {},
        {
          get: () => {
            throw new Error('trap');
          },
          getPrototypeOf: () => {
            throw new Error('trap');
          },
          has: () => {
            throw new Error('trap');
          },
          ownKeys: () => {
            throw new Error('trap');
          },
          getOwnPropertyDescriptor: () => {
            throw new Error('trap');
          },
        },
      ),
  ],
  ['a BigInt', () => 10n],
  ['a symbol', () => Symbol('s')],
];

describe('a tool that throws anything', () => {
  it.each(hostileThrows)('throwing %s is an error result naming the tool', async (_label, thrown) => {
    const { runtime, model, store } = oddToolRuntime(() => {
      throw thrown();
    });
    const handle = runtime.spawn({ agent: 'explore', prompt: 'x' });
    const result = await handle.result;
    expect(result).toMatchObject({ status: 'completed', output: 'survived' });
    const answer = resultOf(model.requests[1]!.messages);
    expect(answer.is_error).toBe(true);
    expect(answer.content).toMatch(/^Error: tool "odd" failed: ./);
    await expectPlainJson(store, handle.id);
  });

  it('a 1 MB error message is kept to its first 20,000 characters', async () => {
    const { runtime, model } = oddToolRuntime(() => {
      throw new Error('e'.repeat(1_000_000));
    });
    await runtime.spawn({ agent: 'explore', prompt: 'x' }).result;
    const content = resultOf(model.requests[1]!.messages).content as string;
    expect(content).toBe(`Error: tool "odd" failed: ${'e'.repeat(20_000)}…`);
  });

  it('a rejected promise of Object.create(null) is an error result too', async () => {
    const { runtime, model } = oddToolRuntime(() => Promise.reject(Object.create(null)));
    const result = await runtime.spawn({ agent: 'explore', prompt: 'x' }).result;
    expect(result.status).toBe('completed');
    expect(resultOf(model.requests[1]!.messages)).toMatchObject({
      is_error: true,
      content: expect.stringMatching(/tool "odd" failed/),
    });
  });
});

describe('a tool result that JSON cannot hold', () => {
  const hostileResults: [string, () => unknown, RegExp][] = [
    ['a cyclic property', () => [{ type: 'text', text: 'ok', extra: cyclic() }], /^ok$/],
    ['a BigInt property', () => [{ type: 'text', text: 'ok', size: 10n }], /^ok$/],
    ['a cyclic object', () => cyclic(), /tool "odd" returned a result that cannot be stored: .*cycle/],
    ['a BigInt object', () => ({ size: 10n }), /tool "odd" returned a result .*BigInt at result\.size/],
    ['Object.create(null)', () => Object.create(null), /^\{\}$/],
    [
      'a text getter that throws',
      () => [
        Object.defineProperty({ type: 'text' }, 'text', {
          enumerable: true,
          get() {
            throw new Error('no text for you');
          },
        }),
      ],
      /tool "odd" returned a result that cannot be read: .*no text for you/,
    ],
  ];
  it('a sparse array of 4,294,967,295 blocks is cut at once, not walked', async () => {
    const { runtime, model, store } = oddToolRuntime(() => new Array(2 ** 32 - 1));
    const handle = runtime.spawn({ agent: 'explore', prompt: 'x' });
    expect(await handle.result).toMatchObject({ status: 'completed', output: 'survived' });
    const answer = resultOf(model.requests[1]!.messages);
    expect(JSON.stringify(answer.content)).toMatch(/4,294,957,295 more blocks were not kept/);
    await expectPlainJson(store, handle.id);
  });

  it.each(hostileResults)(
    '%s is kept as plain JSON or becomes an error result',
    async (_label, output, expected) => {
      const { runtime, model, store } = oddToolRuntime(output);
      const handle = runtime.spawn({ agent: 'explore', prompt: 'x' });
      expect(await handle.result).toMatchObject({ status: 'completed', output: 'survived' });
      const answer = resultOf(model.requests[1]!.messages);
      const text =
        typeof answer.content === 'string'
          ? answer.content
          : answer.content.map((b) => (b.type === 'text' ? b.text : '')).join('');
      expect(text).toMatch(expected);
      await expectPlainJson(store, handle.id);
    },
  );
});

describe('a model adapter handing over what JSON cannot hold', () => {
  const usage = { input: 1, output: 1 };
  function adapterRuntime(first: () => unknown, options: Partial<RuntimeOptions> = {}) {
    let calls = 0;
    const model: ModelAdapter = {
      async generate() {
        calls++;
        if (calls === 1) return first() as ModelResponse;
        return { content: [{ type: 'text', text: 'survived' }], usage };
      },
    };
    const store = createMemoryStore();
    const { runtime } = fixtureRuntime([], { model, store, ...options });
    return { runtime, store };
  }
  const call = (input: unknown) => ({
    content: [{ type: 'tool_use', id: 'toolu_1', name: 'echo', input }],
    usage,
  });

  const hostileInputs: [string, unknown, RegExp][] = [
    ['a BigInt', { text: 10n }, /BigInt at input\.text/],
    ['a cycle', cyclic(), /cycle at input\.self/],
    ['a function', { text: () => 'x' }, /function at input\.text/],
    ['a symbol', { text: Symbol('s') }, /symbol at input\.text/],
  ];
  it.each(hostileInputs)(
    'a tool input holding %s is answered with an error naming where',
    async (_label, input, expected) => {
      const warnings: string[] = [];
      const { runtime, store } = adapterRuntime(() => call(input));
      runtime.on('runtime.warning', (warning) => warnings.push(warning.message));
      const handle = runtime.spawn({ agent: 'explore', prompt: 'x' });
      const result = await handle.result;
      expect(result).toMatchObject({ status: 'completed', output: 'survived' });
      const context = (await replayTask(store, handle.id)).snapshot.context;
      const answer = context.messages.find(
        (message) => message.role === 'user' && Array.isArray(message.content),
      );
      expect((answer!.content as ToolResultBlock[])[0]).toMatchObject({
        is_error: true,
        content: expect.stringMatching(expected),
      });
      expect(warnings.join('\n')).toMatch(expected);
      await expectPlainJson(store, handle.id);
    },
  );

  const hostileResponses: [string, () => unknown, RegExp][] = [
    [
      'throws Object.create(null)',
      () => {
        throw Object.create(null);
      },
      /./,
    ],
    [
      'throws a Proxy that throws on every trap',
      () => {
        throw new Proxy(
          {},
          {
            get() {
              throw new Error('trap');
            },
            getPrototypeOf() {
              throw new Error('trap');
            },
          },
        );
      },
      /./,
    ],
    [
      'rejects with an error whose message getter throws',
      () =>
        Promise.reject(
          Object.defineProperty(new Error('x'), 'message', {
            get() {
              throw new Error('bite');
            },
          }),
        ),
      /./,
    ],
    ['returns a string', () => 'hello', /expected an object, got string/],
    [
      'returns a 20 MB tool_use id',
      () => ({ content: [{ type: 'tool_use', id: 'i'.repeat(20_000_000), name: 'echo', input: {} }], usage }),
      /content\[0\]\.id is longer than 1,000 characters/,
    ],
    [
      'returns a 20 MB thinking signature',
      () => ({ content: [{ type: 'thinking', thinking: 'hm', signature: 's'.repeat(20_000_000) }], usage }),
      /content\[0\]\.signature is longer than 1,000,000 characters/,
    ],
    [
      'returns 2,000,000 text blocks',
      () => ({ content: new Array(2_000_000).fill({ type: 'text', text: 'a' }), usage }),
      /content has 2,000,000 blocks, more than 10,000/,
    ],
    [
      'returns a response whose content getter throws',
      () =>
        Object.defineProperty({ usage }, 'content', {
          get() {
            throw new Error('content bites');
          },
        }),
      /could not be read: content bites/,
    ],
    [
      'returns a Proxy that throws on every trap',
      () =>
        new Proxy(
          {},
          {
            get() {
              throw new Error('trap');
            },
            getPrototypeOf() {
              throw new Error('trap');
            },
            ownKeys() {
              throw new Error('trap');
            },
          },
        ),
      /trap/,
    ],
    [
      'returns a text block with a cyclic extra',
      () => ({
        content: [{ type: 'text', text: 'hi', loop: cyclic() }],
        usage: { ...usage, more: cyclic() },
      }),
      /^$/,
    ],
    [
      'returns usage with BigInt counts',
      () => ({ content: [{ type: 'text', text: 'hi' }], usage: { input: 1n, output: 2n } }),
      /^$/,
    ],
  ];
  it.each(hostileResponses)(
    'an adapter that %s fails the task or is read safely, never the process',
    async (_label, first, expected) => {
      const { runtime, store } = adapterRuntime(first);
      const handle = runtime.spawn({ agent: 'explore', prompt: 'x' });
      const result = await handle.result;
      if (expected.source === '^$') expect(result.status).toBe('completed');
      else {
        expect(result.status).toBe('failed');
        expect(result.error!.message).toMatch(expected);
      }
      await expectPlainJson(store, handle.id);
    },
  );
});

describe('a host listener that throws', () => {
  it('is reported as a runtime warning; the task and the other listeners go on', async () => {
    const { runtime } = fixtureRuntime([toolReply('echo', { text: 'a' }), textReply('done')]);
    const warnings: string[] = [];
    const seen: string[] = [];
    runtime.on('runtime.warning', (warning) => warnings.push(`${warning.code}: ${warning.message}`));
    runtime.on('tool.started', () => {
      throw Object.create(null);
    });
    runtime.on('task.started', () => {
      throw new Error('listener bug');
    });
    runtime.on('tool.started', () => seen.push('tool.started'));
    const result = await runtime.spawn({ agent: 'explore', prompt: 'x' }).result;
    expect(result).toMatchObject({ status: 'completed', output: 'done' });
    expect(seen).toEqual(['tool.started']);
    expect(warnings).toEqual([
      expect.stringMatching(/^LISTENER_FAILED: A task\.started listener threw: listener bug/),
      expect.stringMatching(/^LISTENER_FAILED: A tool\.started listener threw/),
    ]);
  });

  it('an async listener that rejects is reported too, not an unhandled rejection', async () => {
    const { runtime } = fixtureRuntime([textReply('done')]);
    const warnings: string[] = [];
    runtime.on('runtime.warning', (warning) => warnings.push(`${warning.code}: ${warning.message}`));
    runtime.on('task.completed', async () => {
      throw new Error('async listener bug');
    });
    const session = runtime.createSession();
    session.on('message', async () => {
      await Promise.resolve();
      throw Object.create(null);
    });
    expect(await runtime.spawn({ agent: 'explore', prompt: 'x' }).result).toMatchObject({
      status: 'completed',
    });
    await session.send('hi');
    await settle();
    expect(warnings).toEqual([
      expect.stringMatching(/^LISTENER_FAILED: A task\.completed listener threw: async listener bug/),
      expect.stringMatching(/^LISTENER_FAILED: A session message listener threw: a thrown Object/),
    ]);
  });

  it('a throwing runtime.warning listener is not reported to itself (no loop)', async () => {
    const { runtime } = fixtureRuntime([textReply('done')], { approval: (() => undefined) as never });
    runtime.on('runtime.warning', () => {
      throw new Error('warning listener bug');
    });
    runtime.on('task.started', () => {
      throw new Error('listener bug');
    });
    expect(await runtime.spawn({ agent: 'explore', prompt: 'x' }).result).toMatchObject({
      status: 'completed',
    });
  });
});

describe('an approval policy or host that misbehaves', () => {
  const saveOnce = [toolReply('save', { note: 'n' }), textReply('done')];
  const decisions: [string, () => unknown, RegExp][] = [
    [
      'a decision object whose getter throws',
      () =>
        Object.defineProperty({}, 'decision', {
          enumerable: true,
          get() {
            throw new Error('getter bites');
          },
        }),
      /could not be read: getter bites/,
    ],
    ['garbage', () => ({ decision: 'yes please' }), /not a decision/],
    [
      'a throw of Object.create(null)',
      () => {
        throw Object.create(null);
      },
      /the approval policy failed/,
    ],
    [
      'a rejection with a Proxy',
      () =>
        Promise.reject(
          new Proxy(
            {},
            {
              get() {
                throw new Error('trap');
              },
              getPrototypeOf() {
                throw new Error('trap');
              },
            },
          ),
        ),
      /the approval policy failed/,
    ],
    [
      'a reason getter that throws',
      () =>
        Object.defineProperty({ decision: 'approve' }, 'reason', {
          enumerable: true,
          get() {
            throw new Error('reason bites');
          },
        }),
      /could not be read: reason bites/,
    ],
  ];
  it.each(decisions)('%s is a denial with a clear reason and a warning', async (_label, decide, reason) => {
    const warnings: string[] = [];
    const { runtime, calls, model, store } = fixtureRuntime(saveOnce, { approval: decide as never });
    runtime.on('runtime.warning', (warning) => warnings.push(warning.message));
    const handle = runtime.spawn({ agent: 'writer', prompt: 'x' });
    expect(await handle.result).toMatchObject({ status: 'completed', output: 'done' });
    expect(calls).toEqual([]);
    const answer = resultOf(model.requests[1]!.messages);
    expect(answer).toMatchObject({ is_error: true });
    expect(answer.content).toMatch(reason);
    expect(warnings.join('\n')).toMatch(/APPROVAL|approval policy/);
    await expectPlainJson(store, handle.id);
  });

  it('a policy that never settles is withdrawn when the task is cancelled', async () => {
    const { runtime, calls } = fixtureRuntime(saveOnce, { approval: () => new Promise(() => {}) });
    const handle = runtime.spawn({ agent: 'writer', prompt: 'x' });
    await settle();
    runtime.cancel(handle.id, 'enough');
    expect(await handle.result).toMatchObject({ status: 'cancelled' });
    expect(calls).toEqual([]);
  });

  it('a host deciding with options whose getter throws denies the call, with a warning', async () => {
    const warnings: string[] = [];
    const { runtime, calls, model } = fixtureRuntime(saveOnce, { approval: 'ask' });
    runtime.on('runtime.warning', (warning) => warnings.push(warning.code));
    runtime.on('approval.requested', (request) => {
      const options = Object.defineProperty({}, 'always', {
        get() {
          throw new Error('always bites');
        },
      });
      runtime.approve(request.id, options);
    });
    expect(await runtime.spawn({ agent: 'writer', prompt: 'x' }).result).toMatchObject({
      status: 'completed',
    });
    expect(calls).toEqual([]);
    expect(resultOf(model.requests[1]!.messages).content).toMatch(/could not be read: always bites/);
    expect(warnings).toEqual(['APPROVAL_POLICY_INVALID']);
  });

  it('a host deciding with garbage is told so, and the approval still waits', async () => {
    const { runtime, calls } = fixtureRuntime(saveOnce, { approval: 'ask' });
    const thrown: string[] = [];
    runtime.on('approval.requested', (request) => {
      const { parts: approvals } = runtime as unknown as {
        parts: { approvals: { resolve(id: string, decision: unknown): void } };
      };
      try {
        approvals.approvals.resolve(request.id, 'yes');
      } catch (error) {
        thrown.push((error as Error).message);
      }
      runtime.approve(request.id);
    });
    expect(await runtime.spawn({ agent: 'writer', prompt: 'x' }).result).toMatchObject({
      status: 'completed',
    });
    expect(thrown).toEqual([expect.stringMatching(/decided with 'approve' or 'deny'; got "yes"/)]);
    expect(calls.map((call) => call.tool)).toEqual(['save']);
  });
});

describe('model text is capped like tool output', () => {
  it('a 50 MB text block is kept to MAX_MODEL_TEXT_CHARS with a note, and a warning says so', async () => {
    const huge = 'y'.repeat(50 * 1024 * 1024);
    const store = createMemoryStore();
    const warnings: string[] = [];
    const { runtime } = fixtureRuntime(
      [
        {
          content: [
            { type: 'thinking', thinking: huge },
            { type: 'text', text: huge },
          ],
        },
      ],
      {
        store,
      },
    );
    runtime.on('runtime.warning', (warning) => warnings.push(`${warning.code}: ${warning.message}`));
    const handle = runtime.spawn({ agent: 'explore', prompt: 'x' });
    const result = await handle.result;
    expect(result.status).toBe('completed');
    const output = String(result.output);
    expect(output.length).toBeLessThan(MAX_MODEL_TEXT_CHARS + 200);
    expect(output).toMatch(/\[Model text cut: 51,428,800 more characters were not kept\.\]$/);
    await store.flush();
    const journal = JSON.stringify((await store.loadJournal(handle.id)).entries);
    expect(journal.length).toBeLessThan(2 * MAX_MODEL_TEXT_CHARS + 10_000);
    expect(warnings).toEqual([expect.stringMatching(/^MODEL_TEXT_TRUNCATED: .*102,857,600 characters/)]);
  });
});

describe('other code a task runs', () => {
  it("a tool whose input schema's own check throws is answered with an error naming the tool", async () => {
    const picky = defineTool({
      name: 'picky',
      description: 'Has a schema that throws',
      access: 'read',
      input: v.pipe(
        v.object({}),
        v.check(() => {
          throw Object.create(null);
        }),
      ),
      execute: () => 'ran',
      inputJsonSchema: { type: 'object' },
    });
    const { runtime, model } = fixtureRuntime([toolReply('picky', {}), textReply('survived')], {
      tools: [picky],
      agents: [{ name: 'explore', description: 'x', systemPrompt: 'x', tools: ['picky'] }],
    });
    expect(await runtime.spawn({ agent: 'explore', prompt: 'x' }).result).toMatchObject({
      status: 'completed',
      output: 'survived',
    });
    expect(resultOf(model.requests[1]!.messages)).toMatchObject({
      is_error: true,
      content: expect.stringMatching(
        /^Error: the input of tool "picky" could not be checked: its input schema failed/,
      ),
    });
  });

  it('an adapter streaming deltas that cannot be read still answers; progress shows the readable ones', async () => {
    const progress: string[] = [];
    const model: ModelAdapter = {
      async generate(_request, _signal, options) {
        options?.onDelta?.(null as never);
        options?.onDelta?.(
          Object.defineProperty({}, 'type', {
            get() {
              throw new Error('delta bites');
            },
          }) as never,
        );
        options?.onDelta?.({ type: 'text', text: 10n } as never);
        options?.onDelta?.({ type: 'text', text: 'fine' });
        return { content: [{ type: 'text', text: 'done' }], usage: { input: 1, output: 1 } };
      },
    };
    const { runtime } = fixtureRuntime([], { model });
    runtime.on('task.progress', (event) => {
      if (event.kind === 'text') progress.push(event.text!);
    });
    expect(await runtime.spawn({ agent: 'explore', prompt: 'x' }).result).toMatchObject({
      status: 'completed',
      output: 'done',
    });
    expect(progress).toEqual(['fine']);
  });
});

describe('a tool source that misbehaves', () => {
  const good = defineTool({
    name: 'mcp__files__read',
    description: 'Read',
    access: 'read',
    input: v.object({}),
    execute: () => 'contents',
  });
  const sources: [string, () => unknown][] = [
    ['rejects with Object.create(null)', () => Promise.reject(Object.create(null))],
    ['answers tools that are not a list', () => ({ tools: 'nope' })],
    [
      'answers junk and a tool whose name getter throws, next to a good tool',
      () => ({
        tools: [
          null,
          42,
          { name: 'no_execute', description: 'x' },
          Object.defineProperty({}, 'name', {
            get() {
              throw new Error('name bites');
            },
          }),
          good,
        ],
        warnings: [10n, 'a real warning'],
      }),
    ],
    [
      'answers a Proxy whose every trap throws',
      () =>
        new Proxy(
          {},
          {
            get: () => {
              throw new Error('trap');
            },
          },
        ),
    ],
  ];
  it.each(sources)(
    'a source that %s: the task goes on with the readable tools, with warnings',
    async (_label, answer) => {
      const warnings: string[] = [];
      const { runtime, model } = fixtureRuntime([textReply('went on')], {
        toolSources: [{ name: 'files', tools: async () => answer() as never }],
      });
      runtime.on('runtime.warning', (warning) => warnings.push(`${warning.code}: ${warning.message}`));
      const handle = runtime.spawn({ agent: 'general-purpose', prompt: 'x' });
      expect(await handle.result).toMatchObject({ status: 'completed', output: 'went on' });
      expect(warnings.length).toBeGreaterThan(0);
      for (const warning of warnings)
        expect(warning).toMatch(/^TOOL_SOURCE_FAILED: .*"files"|^TOOL_SOURCE_FAILED: a real warning/);
      const offered = model.requests[0]!.tools.map((tool) => tool.name);
      expect(offered.includes('mcp__files__read')).toBe(_label.includes('good tool'));
    },
  );
});

describe("a session's message listener that throws", () => {
  it('is a LISTENER_FAILED warning; the reply still arrives and the other listeners run', async () => {
    const { runtime } = fixtureRuntime([textReply('hello there')]);
    const warnings: string[] = [];
    runtime.on('runtime.warning', (warning) => warnings.push(`${warning.code}: ${warning.message}`));
    const session = runtime.createSession();
    const seen: string[] = [];
    session.on('message', () => {
      throw Object.create(null);
    });
    session.on('message', (message) => seen.push(message.text));
    const reply = await session.send('hi');
    expect(reply.text).toBe('hello there');
    expect(seen).toEqual(['hello there']);
    expect(warnings).toEqual([expect.stringMatching(/^LISTENER_FAILED: A session message listener threw/)]);
  });
});

describe('a host store whose journal write throws', () => {
  it('is a PERSISTENCE_FAILED warning naming the task; the task still ends (also from a deadline timer)', async () => {
    const memory = createMemoryStore();
    const store: TaskStore = {
      ...memory,
      appendJournal(taskId, entry) {
        if (entry.event.type === 'model.responded' || entry.event.type === 'deadline.passed')
          throw Object.create(null);
        memory.appendJournal(taskId, entry);
      },
    };
    const warnings: string[] = [];
    const { runtime, clock } = fixtureRuntime(
      (_request, { call, signal }) => (call === 0 ? textReply('answered') : hang(signal)),
      { store },
    );
    runtime.on('runtime.warning', (warning) => warnings.push(`${warning.code}: ${warning.message}`));
    const first = runtime.spawn({ agent: 'explore', prompt: 'x' });
    expect(await first.result).toMatchObject({ status: 'completed', output: 'answered' });
    const second = runtime.spawn({ agent: 'explore', prompt: 'y', limits: { timeoutMs: 1_000 } });
    await settle();
    clock.advance(60_000);
    expect((await second.result).status).toBe('failed');
    expect(warnings[0]).toMatch(new RegExp(`^PERSISTENCE_FAILED: .*model\\.responded .*task ${first.id}`));
    // The grace deadline, then the hard one: each fails to be journaled, and each still counts.
    expect(warnings.length).toBeGreaterThan(1);
    for (const warning of warnings.slice(1))
      expect(warning).toMatch(new RegExp(`^PERSISTENCE_FAILED: .*deadline\\.passed .*task ${second.id}`));
  });
});

describe('a host store whose snapshot write throws', () => {
  it('is a PERSISTENCE_FAILED warning; the task still ends', async () => {
    const memory = createMemoryStore();
    const store: TaskStore = {
      ...memory,
      saveSnapshot() {
        throw new Error('disk full');
      },
    };
    const warnings: string[] = [];
    const { runtime } = fixtureRuntime([toolReply('echo', { text: 'a' }), textReply('answered')], { store });
    runtime.on('runtime.warning', (warning) => warnings.push(`${warning.code}: ${warning.message}`));
    const handle = runtime.spawn({ agent: 'explore', prompt: 'x' });
    expect(await handle.result).toMatchObject({ status: 'completed', output: 'answered' });
    expect(warnings.length).toBeGreaterThan(0);
    for (const warning of warnings)
      expect(warning).toMatch(
        new RegExp(
          `^PERSISTENCE_FAILED: The store could not save the snapshot of task ${handle.id}: disk full`,
        ),
      );
  });
});

describe('a host store whose status or result write throws', () => {
  it('is a PERSISTENCE_FAILED warning; the task still settles and its handle resolves', async () => {
    const memory = createMemoryStore();
    const store: TaskStore = {
      ...memory,
      appendStatus(record) {
        if (record.event === 'task.started' || record.event === 'task.completed') throw Object.create(null);
        memory.appendStatus(record);
      },
      saveResult() {
        throw new Error('disk full');
      },
    };
    const warnings: string[] = [];
    const { runtime } = fixtureRuntime([textReply('answered')], { store });
    runtime.on('runtime.warning', (warning) => warnings.push(`${warning.code}: ${warning.message}`));
    const handle = runtime.spawn({ agent: 'explore', prompt: 'x' });
    expect(await handle.result).toMatchObject({ status: 'completed', output: 'answered' });
    expect(warnings).toEqual([
      expect.stringMatching(
        new RegExp(`^PERSISTENCE_FAILED: The store could not record task\\.started of task ${handle.id}: `),
      ),
      expect.stringMatching(
        new RegExp(
          `^PERSISTENCE_FAILED: The store could not save the result of task ${handle.id}: disk full`,
        ),
      ),
      expect.stringMatching(
        new RegExp(`^PERSISTENCE_FAILED: The store could not record task\\.completed of task ${handle.id}: `),
      ),
    ]);
  });
});

describe('an abort listener of a tool or a model adapter that throws', () => {
  it('is a LISTENER_FAILED warning when the task is cancelled, not an uncaught exception', async () => {
    const warnings: string[] = [];
    const sticky = defineTool({
      name: 'sticky',
      description: 'Hangs, and throws when aborted',
      access: 'read',
      input: v.object({}),
      execute: (_input, context) =>
        new Promise<string>((_resolve, reject) => {
          context.signal.addEventListener('abort', () => {
            throw new Error('abort listener bites');
          });
          (context.signal as { onabort?: unknown }).onabort = () => {
            throw Object.create(null);
          };
          context.signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true });
        }),
    });
    const { runtime } = fixtureRuntime([toolReply('sticky', {}), textReply('never')], {
      tools: [sticky],
      agents: [{ name: 'explore', description: 'x', systemPrompt: 'x', tools: ['sticky'] }],
    });
    runtime.on('runtime.warning', (warning) => warnings.push(`${warning.code}: ${warning.message}`));
    const handle = runtime.spawn({ agent: 'explore', prompt: 'x' });
    await settle();
    runtime.cancel(handle.id, 'enough');
    expect(await handle.result).toMatchObject({ status: 'cancelled' });
    // Node would rethrow a listener's error on the next tick: give it the chance.
    await new Promise<void>((resolve) => setTimeout(resolve, 0));
    expect(warnings).toEqual([
      expect.stringMatching(
        new RegExp(`^LISTENER_FAILED: An abort listener in task ${handle.id} threw: abort listener bites`),
      ),
      expect.stringMatching(
        new RegExp(`^LISTENER_FAILED: An abort listener in task ${handle.id} threw: a thrown Object`),
      ),
    ]);
  });
});

describe('a host store whose flush rejects with a non-Error before a write tool runs', () => {
  it('the call is not run, and the result says why in words', async () => {
    const memory = createMemoryStore();
    const store: TaskStore = { ...memory, flush: () => Promise.reject(Object.create(null)) };
    const { runtime, calls, model } = fixtureRuntime([toolReply('save', { note: 'n' }), textReply('done')], {
      store,
    });
    expect(await runtime.spawn({ agent: 'writer', prompt: 'x' }).result).toMatchObject({
      status: 'completed',
    });
    expect(calls).toEqual([]);
    expect(resultOf(model.requests[1]!.messages).content).toBe(
      'Error: not run, the task store could not record it: a thrown Object with no readable message',
    );
  });
});
