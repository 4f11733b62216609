import { createFetchTool, createOpfsTools, openOpfsWorkspace } from '@troupe/browser';
import { createRuntime, type ModelAdapter, type Runtime, type TaskStore } from '@troupe/core';
import { createRecorder, recordTeams, type TimelineRecorder } from '@troupe/inspect';
import { builtInAgents, loadUserAgents } from './agents.js';
import { createDemoModel } from './demo-model.js';
import { seedDemoProject } from './demo-project.js';
import { showNotice } from './notice.js';
import type { ModelSettings } from './settings.js';
import { unconfiguredModel } from './unconfigured-model.js';

/** The running app: its runtime, store and the settings it was made with. */
export interface AppRuntime {
  runtime: Runtime;
  store: TaskStore;
  settings: ModelSettings;
  /** The names of the tools the runtime was given (the agents editor checks `tools:` against them). */
  toolNames: readonly string[];
  /** Every inspection event of the runtime since the page loaded (secrets redacted): the inspector's live view. */
  recorder: TimelineRecorder;
}

/**
 * The demo's model, or Claude: the Anthropic client (most of the app's code) is loaded only then.
 * Claude with neither a key nor a proxy gets a model that says so on every call. Two retries (not
 * the SDK adapter's four): in a page, a failure shown in a few seconds beats a long wait.
 */
async function modelFor(settings: ModelSettings, pace: number): Promise<ModelAdapter> {
  if (settings.mode === 'demo') return createDemoModel(pace);
  if (!settings.apiKey && !settings.baseURL) return unconfiguredModel();
  const { createAnthropicModel } = await import('@troupe/anthropic');
  return createAnthropicModel({
    // A key typed by the user (sessionStorage only), or a placeholder when the proxy adds it.
    apiKey: settings.apiKey ?? 'proxy',
    ...(settings.baseURL ? { baseURL: settings.baseURL } : {}),
    maxRetries: 2,
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
  const tools = [...createOpfsTools(workspace), createFetchTool({ allowedOrigins: [location.origin] })];
  const runtime = createRuntime({
    model: await modelFor(settings, Number.isFinite(pace) ? pace : 1),
    agents: [...builtInAgents(), ...(await loadUserAgents(showNotice))],
    tools,
    approval: 'ask',
    store,
    inspect: recorder.inspect,
  });
  // The runtime's observer sees actors; its agent teams' events reach the live timeline here.
  recordTeams(runtime, recorder);
  return { runtime, store, settings, recorder, toolNames: tools.map((tool) => tool.name) };
}
