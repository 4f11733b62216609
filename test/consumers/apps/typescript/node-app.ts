// A Node app's use of troupe, type-checked as a consumer would: every server-side package and
// subpath, with the types flowing through (a wrong type here is a compile error).
import { createAnthropicModel } from '@troupe/anthropic';
import {
  createRuntime,
  type Runtime,
  type RuntimeEvents,
  type SessionReply,
  type TaskResult,
  TroupeError,
} from '@troupe/core';
import { parseStatusRecord } from '@troupe/core/store';
import { scriptedModel, textReply } from '@troupe/core/testing';
import { createRecorder, type TimelineRecorder } from '@troupe/inspect';
import { McpConfigError, parseMcpConfig } from '@troupe/mcp';
import { createFileStore, createNodeTools, loadAgentDirectories } from '@troupe/node';
import { type ClusterOptions, connectCluster, DATABASE_SCHEMA_VERSION } from '@troupe/postgres';

export async function main(offline: boolean): Promise<string> {
  const agents = await loadAgentDirectories({ cwd: process.cwd(), home: process.cwd() });
  const runtime: Runtime = createRuntime({
    model: offline ? scriptedModel([textReply('done')]) : createAnthropicModel({ apiKey: 'key' }),
    agents,
    tools: createNodeTools({ root: process.cwd() }),
    store: createFileStore({ dir: '.tasks' }),
    approval: (request) => (request.access === 'read' ? 'approve' : 'deny'),
  });
  const onDone = (event: RuntimeEvents['task.completed']): TaskResult => event.result;
  runtime.on('task.completed', onDone);
  const recorder: TimelineRecorder = createRecorder();
  void recorder;
  const { result } = runtime.spawn({ agent: 'explore', prompt: 'Look around' });
  const done: TaskResult = await result;
  const output = typeof done.output === 'string' ? done.output : JSON.stringify(done.output);
  const reply: SessionReply = await runtime.createSession().send('Hello');
  const parsed = parseMcpConfig({ mcpServers: {} });
  const options: Partial<ClusterOptions> = {};
  void [parsed, options, connectCluster, DATABASE_SCHEMA_VERSION, parseStatusRecord];
  await runtime.shutdown();
  try {
    throw new McpConfigError('bad', { source: '.mcp.json' });
  } catch (error) {
    if (TroupeError.isInstance(error)) return error.code;
  }
  return `${output} ${reply.text}`;
}
