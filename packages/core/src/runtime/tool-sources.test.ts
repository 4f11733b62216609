import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import type { RuntimeWarning } from '../events.js';
import { createMemoryStore } from '../store/memory-store.js';
import { textReply, toolReply } from '../testing/scripted-model.js';
import { defineTool, type Tool } from '../tools/define-tool.js';
import type { ToolSource, ToolSourceRequest } from '../tools/tool-source.js';
import { fixtureRuntime, hang, settle, turnOf } from './test-fixtures.js';

/** A source of one `mcp__files__read` tool that answers when `open()` is called. */
function deferredSource() {
  const asked: ToolSourceRequest[] = [];
  const ran: string[] = [];
  const tool: Tool = defineTool({
    name: 'mcp__files__read',
    description: 'Read a file through the files server',
    access: 'read',
    input: v.object({ path: v.string() }),
    execute: ({ path }, context) => {
      ran.push(`${context.taskId}:${path}`);
      return `contents of ${path}`;
    },
  });
  let open!: () => void;
  let fail!: (error: Error) => void;
  const opened = new Promise<void>((resolve, reject) => {
    open = resolve;
    fail = reject;
  });
  const source: ToolSource = {
    name: 'files',
    async tools(request) {
      asked.push(request);
      await opened;
      return { tools: [tool] };
    },
  };
  return { source, asked, ran, open, fail };
}

const usesSourceTool = (request: Parameters<typeof turnOf>[0]) =>
  turnOf(request) === 1 ? toolReply('mcp__files__read', { path: 'a.txt' }) : textReply('read it');

describe('tool sources (tools asked for when a task starts)', () => {
  it('asks a source only when a task starts, holds its first model call until the source answered, and lets it call the tools', async () => {
    const files = deferredSource();
    const { runtime, model } = fixtureRuntime(usesSourceTool, {
      toolSources: [files.source],
      limits: { maxConcurrent: 1 },
    });
    expect(files.asked).toEqual([]);
    const first = runtime.spawn({ agent: 'general-purpose', prompt: 'read a.txt' });
    const second = runtime.spawn({ agent: 'general-purpose', prompt: 'read a.txt too' });
    await settle();
    // Only the started task asked; the queued one did not, and no model call went out yet.
    expect(files.asked).toEqual([
      { taskId: first.id, agent: 'general-purpose', selection: { allow: undefined, deny: undefined } },
    ]);
    expect(model.requests).toHaveLength(0);
    files.open();
    expect(await first.result).toMatchObject({ status: 'completed', output: 'read it' });
    expect(model.requests[0]!.tools.map((tool) => tool.name)).toContain('mcp__files__read');
    expect(await second.result).toMatchObject({ status: 'completed' });
    expect(files.asked.map((request) => request.taskId)).toEqual([first.id, second.id]);
    expect(files.ran).toEqual([`${first.id}:a.txt`, `${second.id}:a.txt`]);
  });

  it("keeps only the tools the agent's selection allows, and tells the source that selection", async () => {
    const files = deferredSource();
    files.open();
    const { runtime, model } = fixtureRuntime(usesSourceTool, { toolSources: [files.source] });
    const handle = runtime.spawn({ agent: 'explore', prompt: 'read a.txt' });
    const result = await handle.result;
    expect(files.asked[0]!.selection).toEqual({ allow: ['echo', 'wait', 'boom'], deny: undefined });
    expect(model.requests[0]!.tools.map((tool) => tool.name)).toEqual(['boom', 'echo', 'wait']);
    // The call to a tool outside the agent's registry is refused, never run.
    expect(files.ran).toEqual([]);
    expect(result.status).toBe('completed');
  });

  it('a source that fails gives that task no tools and a TOOL_SOURCE_FAILED warning naming the source; the task goes on', async () => {
    const files = deferredSource();
    files.fail(new Error('server "files" did not start'));
    const warnings: RuntimeWarning[] = [];
    const { runtime, model } = fixtureRuntime([textReply('done without it')], {
      toolSources: [files.source],
    });
    runtime.on('runtime.warning', (warning) => warnings.push(warning));
    const handle = runtime.spawn({ agent: 'general-purpose', prompt: 'read a.txt' });
    expect(await handle.result).toMatchObject({ status: 'completed', output: 'done without it' });
    expect(model.requests[0]!.tools.map((tool) => tool.name)).not.toContain('mcp__files__read');
    expect(warnings).toEqual([
      {
        code: 'TOOL_SOURCE_FAILED',
        message: `Tool source "files" gave task ${handle.id} no tools: server "files" did not start`,
        taskId: handle.id,
      },
    ]);
  });

  it('a task cancelled while its source is still answering ends cancelled without a model call', async () => {
    const files = deferredSource();
    const { runtime, model } = fixtureRuntime(usesSourceTool, { toolSources: [files.source] });
    const handle = runtime.spawn({ agent: 'general-purpose', prompt: 'read a.txt' });
    await settle();
    runtime.cancel(handle.id, 'changed my mind');
    expect(await handle.result).toMatchObject({ status: 'cancelled' });
    files.open();
    await settle();
    expect(model.requests).toHaveLength(0);
  });

  it('a restored task asks the sources again and gets their tools back', async () => {
    const store = createMemoryStore();
    const before = deferredSource();
    before.open();
    const first = fixtureRuntime((_request, { signal }) => hang(signal), {
      store,
      toolSources: [before.source],
    });
    const { id } = first.runtime.spawn({ agent: 'general-purpose', prompt: 'read a.txt' });
    await settle();
    expect(first.model.requests).toHaveLength(1);
    await first.runtime.shutdown({ keepTasks: true });
    const after = deferredSource();
    after.open();
    const second = fixtureRuntime(usesSourceTool, { store, toolSources: [after.source] });
    expect((await second.runtime.restore()).restored).toEqual([id]);
    expect(await second.runtime.result(id)).toMatchObject({ status: 'completed', output: 'read it' });
    expect(after.asked.map((request) => request.taskId)).toEqual([id]);
    expect(after.ran).toEqual([`${id}:a.txt`]);
  });

  it("a session's main agent gets the source's tools too", async () => {
    const files = deferredSource();
    files.open();
    const { runtime, model } = fixtureRuntime(usesSourceTool, { toolSources: [files.source] });
    const session = runtime.createSession({ sessionKey: 's1' });
    const reply = await session.send('read a.txt');
    expect(reply.text).toBe('read it');
    expect(files.ran).toEqual(['s1#1:a.txt']);
    expect(model.requests[0]!.tools.map((tool) => tool.name)).toContain('task');
  });

  it("a source's tool named like a base tool is left out with a warning", async () => {
    const clash: ToolSource = {
      name: 'clash',
      tools: async () => ({
        tools: [
          defineTool({
            name: 'echo',
            description: 'other echo',
            access: 'read',
            input: v.object({}),
            execute: () => 'x',
          }),
        ],
        warnings: ['the clash source warns'],
      }),
    };
    const warnings: string[] = [];
    const { runtime, model } = fixtureRuntime([textReply('ok')], { toolSources: [clash] });
    runtime.on('runtime.warning', (warning) => warnings.push(warning.message));
    const handle = runtime.spawn({ agent: 'explore', prompt: 'x' });
    await handle.result;
    expect(model.requests[0]!.tools.find((tool) => tool.name === 'echo')?.description).toBe('Echo text');
    expect(warnings).toEqual([
      'the clash source warns',
      `A tool source offers "echo", which task ${handle.id} already has; the source's tool is left out.`,
    ]);
  });
});
