// Type tests of the public API (checked by vitest's typecheck).
import * as v from 'valibot';
import { describe, expectTypeOf, it } from 'vitest';
import {
  type ApprovalRequest,
  createRuntime,
  defineTool,
  type ForkOptions,
  type ModelAdapter,
  ModelError,
  PersistenceError,
  parseAgentFile,
  type Runtime,
  type TaskHandle,
  type TaskInfo,
  type TaskResult,
  type Tool,
  type ToolContext,
} from './index.js';
import { scriptedModel } from './testing/index.js';

describe('public API types', () => {
  it('defineTool infers the input from the valibot schema', () => {
    const tool = defineTool({
      name: 'echo',
      description: 'Echo',
      access: 'read',
      input: v.object({ text: v.string(), times: v.optional(v.number()) }),
      execute: (input, context) => {
        expectTypeOf(input).toEqualTypeOf<{ text: string; times?: number | undefined }>();
        expectTypeOf(context).toEqualTypeOf<ToolContext>();
        return input.text;
      },
    });
    expectTypeOf(tool).toMatchTypeOf<Tool<{ text: string; times?: number | undefined }>>();
    // @ts-expect-error access must be read, write or execute
    defineTool({ name: 'x', description: 'x', access: 'admin', input: v.object({}), execute: () => '' });
  });

  it('the runtime contract', () => {
    const model = scriptedModel(() => ({
      content: [{ type: 'text', text: 'done' }],
      usage: { input: 1, output: 1 },
    }));
    expectTypeOf(model).toMatchTypeOf<ModelAdapter>();
    const runtime = createRuntime({
      model,
      approval: async (request) => (request.tool === 'bash' ? 'deny' : 'approve'),
    });
    expectTypeOf(runtime).toEqualTypeOf<Runtime>();
    const handle = runtime.spawn({ agent: 'explore', prompt: 'Find X', sessionKey: 's1' });
    expectTypeOf(handle).toEqualTypeOf<TaskHandle>();
    expectTypeOf(handle.result).resolves.toEqualTypeOf<TaskResult>();
    expectTypeOf<TaskResult['status']>().toEqualTypeOf<'completed' | 'failed' | 'cancelled'>();
    expectTypeOf<TaskResult['terminateReason']>().toEqualTypeOf<
      'GOAL' | 'TIMEOUT' | 'MAX_TURNS' | 'TOKEN_LIMIT' | 'ABORTED' | 'ERROR'
    >();
    expectTypeOf(runtime.get('id')).toEqualTypeOf<TaskInfo | undefined>();
    expectTypeOf(runtime.cancel('id')).toEqualTypeOf<boolean>();
    expectTypeOf(runtime.cancelSession('s1')).toEqualTypeOf<number>();
    expectTypeOf(
      runtime.fork('id', { atStep: 3, agent: { systemPrompt: 'x' }, editMessage: { text: 'y' } }),
    ).resolves.toEqualTypeOf<TaskHandle>();
    expectTypeOf<Parameters<Runtime['fork']>[1]>().toEqualTypeOf<ForkOptions>();
    runtime.on('approval.requested', (request) => expectTypeOf(request).toEqualTypeOf<ApprovalRequest>());
    runtime.on('task.completed', (event) => expectTypeOf(event.result).toEqualTypeOf<TaskResult>());
    // @ts-expect-error unknown event names are refused
    runtime.on('task.exploded', () => {});
    expectTypeOf(runtime.restore()).resolves.toHaveProperty('restored');
  });

  it('parseAgentFile returns a definition and warnings', () => {
    const parsed = parseAgentFile('---\nname: a\ndescription: b\n---\nprompt', { path: 'a.md' });
    expectTypeOf(parsed.definition.name).toEqualTypeOf<string>();
    expectTypeOf(parsed.warnings).toBeArray();
  });
});

describe('error classes', () => {
  it('each subclass takes only its own codes, and isInstance narrows', () => {
    new ModelError('MODEL_OVERLOADED', 'busy');
    // @ts-expect-error a tool code is not a model error's
    new ModelError('TOOL_FAILED', 'no');
    new PersistenceError('PERSISTENCE_CORRUPT', 'bad');
    // @ts-expect-error a model code is not a persistence error's
    new PersistenceError('MODEL_AUTH', 'no');
    const value: unknown = new ModelError('MODEL_AUTH', 'key');
    if (ModelError.isInstance(value)) expectTypeOf(value).toEqualTypeOf<ModelError>();
  });
});
