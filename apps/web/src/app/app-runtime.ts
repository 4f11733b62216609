import { createAnthropicModel } from '@troupe/anthropic';
import { createFetchTool, createOpfsTools, openOpfsWorkspace } from '@troupe/browser';
import { createRuntime, type ModelAdapter, type Runtime, type TaskStore } from '@troupe/core';
import { createRecorder, type TimelineRecorder } from '@troupe/inspect';
import { builtInAgents, loadUserAgents } from './agents.js';
import { createDemoModel } from './demo-model.js';
import { seedDemoProject } from './demo-project.js';
import type { ModelSettings } from './settings.js';

/** The running app: its runtime, store and the settings it was made with. */
export interface AppRuntime {
  runtime: Runtime;
  store: TaskStore;
  settings: ModelSettings;
  /** Every inspection event of the runtime since the page loaded (secrets redacted): the inspector's live view. */
  recorder: TimelineRecorder;
}

function modelFor(settings: ModelSettings, pace: number): ModelAdapter {
  if (settings.mode === 'demo') return createDemoModel(pace);
  return createAnthropicModel({
    // A key typed by the user (sessionStorage only) or none when a proxy adds it.
    ...(settings.apiKey ? { apiKey: settings.apiKey } : { apiKey: 'proxy' }),
    ...(settings.baseURL ? { baseURL: settings.baseURL } : {}),
    dangerouslyAllowBrowser: true,
    env: {},
  });
}

/**
 * Creates the app's runtime: the demo's scripted model or Claude, the OPFS workspace tools (the
 * demo's folder seeded with a small project) and a fetch tool limited to this page's origin, the
 * built-in and the user's agents, and `store`. Approvals are asked (`ask`). A recorder keeps the
 * runtime's timeline (the typed API key redacted) for the inspector page's live view.
 */
export async function createAppRuntime(settings: ModelSettings, store: TaskStore): Promise<AppRuntime> {
  const pace = Number(new URLSearchParams(location.search).get('pace') ?? 1);
  const workspace = await openOpfsWorkspace(settings.mode === 'demo' ? 'troupe/demo' : 'troupe/workspace');
  if (settings.mode === 'demo') await seedDemoProject(workspace);
  const recorder = createRecorder({ secrets: [settings.apiKey] });
  const runtime = createRuntime({
    model: modelFor(settings, Number.isFinite(pace) ? pace : 1),
    agents: [...builtInAgents(), ...(await loadUserAgents())],
    tools: [...createOpfsTools(workspace), createFetchTool({ allowedOrigins: [location.origin] })],
    approval: 'ask',
    store,
    inspect: recorder.inspect,
  });
  return { runtime, store, settings, recorder };
}
