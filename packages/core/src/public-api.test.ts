// The public API is a promise: its value exports are listed here, so adding or removing one is a
// visible decision (and the README's entry points table stays true).
import { describe, expect, it } from 'vitest';
import * as core from './index.js';
import * as internal from './internal/index.js';
import * as store from './store/index.js';

describe('@troupe/core entry points', () => {
  it('the barrel exports exactly what hosts use', () => {
    expect(Object.keys(core).sort()).toEqual([
      'DEFAULT_PRICES',
      'DefinitionError',
      'FINAL_TASK_EVENTS',
      'LimitError',
      'MCP_TOOL_PREFIX',
      'ModelError',
      'PersistenceError',
      'Runtime',
      'Session',
      'TASK_EVENT_NAMES',
      'TASK_TOOL_NAMES',
      'ToolError',
      'TroupeError',
      'ValidationError',
      'addToTotals',
      'createAgentRegistry',
      'createMemoryStore',
      'createPermissionPolicy',
      'createRuntime',
      'createTaskId',
      'createToolRegistry',
      'defineTool',
      'emptyTotals',
      'estimateCost',
      'formatDuration',
      'formatTokens',
      'isFinalTaskEvent',
      'isValidAgentName',
      'loadPatternEngine',
      'mcpServerOf',
      'normaliseAgentName',
      'parseAgentFile',
      'parsePermissionRule',
      'priceOf',
      'readTeam',
      'replayTask',
      'replayTeam',
      'resolveModel',
      'resultCost',
      'textOf',
      'toolResultText',
      'usageReport',
      'withPatternEngine',
    ]);
  });

  it('each name has one home: nothing internal or store-only is also public', () => {
    const publicNames = new Set(Object.keys(core));
    expect(Object.keys(internal).filter((name) => publicNames.has(name))).toEqual([]);
    expect(Object.keys(store).filter((name) => publicNames.has(name))).toEqual([]);
  });

  it('the internal subpath gives a runtime to prepareTask only through taskPlannerOf', () => {
    const runtime = core.createRuntime({
      model: { generate: () => new Promise<never>(() => {}) },
      agents: [{ name: 'a', description: 'A.', systemPrompt: 'A.' }],
    });
    const { spec } = internal.prepareTask(
      internal.taskPlannerOf(runtime),
      { agent: 'a', prompt: 'Go' },
      't1',
    );
    expect(spec).toMatchObject({ taskId: 't1', agent: 'a', prompt: 'Go' });
    expect(runtime.list()).toEqual([]);
  });
});
