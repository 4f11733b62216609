import { createMemoryStore } from '@troupe/core';
import type { AppContext } from './app/app-context.js';
import { createAppRuntime } from './app/app-runtime.js';
import { loadChat } from './app/chat-history.js';
import { readSettings } from './app/settings.js';
import { TaskViews } from './app/task-views.js';
import { mountInspector } from './inspector/index.js';
import { mountAgentsPage } from './pages/agents-page.js';
import { mountHomePage } from './pages/home-page.js';
import { mountSettingsPage } from './pages/settings-page.js';
import { mountTaskPage } from './pages/task-page.js';
import { startRouter } from './router.js';

async function start(): Promise<void> {
  const outlet = document.querySelector<HTMLElement>('#outlet')!;
  const nav = document.querySelector<HTMLElement>('#nav')!;
  const settings = readSettings();
  const store = createMemoryStore();
  const { runtime } = await createAppRuntime(settings, store);
  const views = new TaskViews(runtime);
  const chat = await loadChat();
  const session = runtime.createSession({ sessionKey: chat.sessionKey, messages: chat.messages });
  const app: AppContext = { runtime, store, session, chat, views, settings };
  addEventListener('pagehide', () => void store.flush());
  startRouter(outlet, nav, [
    { path: '/', label: 'Chat', mount: (element) => mountHomePage(element, app) },
    { path: '/tasks/:id', mount: (element, params) => mountTaskPage(element, app, params.id!) },
    { path: '/agents', label: 'Agents', mount: (element) => mountAgentsPage(element, app) },
    { path: '/settings', label: 'Model', mount: (element) => mountSettingsPage(element, settings) },
    { path: '/inspector', label: 'Inspector', mount: (element) => mountInspector(element, { store }) },
  ]);
  document.body.dataset.ready = settings.mode;
}

start().catch((error: Error) => {
  document.body.dataset.ready = 'error';
  document.querySelector('#outlet')!.textContent = `troupe could not start: ${error.message}`;
  console.error(error);
});
