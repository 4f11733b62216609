import { createIndexedDbStore } from '@troupe/browser';
import type { AppContext } from './app/app-context.js';
import { createAppRuntime } from './app/app-runtime.js';
import { confirmLinkedBaseURL } from './app/base-url-confirm.js';
import { loadChat } from './app/chat-history.js';
import { showNotice } from './app/notice.js';
import { readSettings } from './app/settings.js';
import { TaskViews } from './app/task-views.js';
import { mountInspector } from './inspector/index.js';
import { mountAgentsPage } from './pages/agents-page.js';
import { mountHomePage } from './pages/home-page.js';
import { mountSettingsPage } from './pages/settings-page.js';
import { mountTaskPage } from './pages/task-page.js';
import { startRouter } from './router.js';

/** How many earlier tasks the board shows after a reload. */
const HISTORY_SIZE = 200;

async function start(): Promise<void> {
  const outlet = document.querySelector<HTMLElement>('#outlet')!;
  const nav = document.querySelector<HTMLElement>('#nav')!;
  const settings = readSettings();
  // A `?baseURL=` is only offered to the user: the runtime below uses the saved base URL.
  confirmLinkedBaseURL(settings);
  // Tasks persist in IndexedDB (one database per mode), written by one tab at a time.
  const store = createIndexedDbStore({
    name: `web-${settings.mode}`,
    onError: (error) => showNotice(`Tasks could not be saved: ${error.message}`),
  });
  if (!(await store.claim({ wait: false }))) {
    document.body.dataset.ready = 'waiting';
    outlet.textContent =
      'troupe is open in another tab of this site. This tab takes over when that one is closed.';
    await store.claim();
    outlet.textContent = '';
  }
  const { runtime, recorder } = await createAppRuntime(settings, store);
  const views = new TaskViews(runtime);
  const chat = await loadChat();
  // The session exists before restore, so restored background tasks announce into it.
  const session = runtime.createSession({ sessionKey: chat.sessionKey, messages: chat.messages });
  const { restored, warnings } = await runtime.restore();
  for (const warning of warnings) showNotice(`Restoring tasks: ${warning.message}`);
  views.addHistory((await runtime.history({ limit: HISTORY_SIZE })).tasks.reverse());
  const app: AppContext = { runtime, store, session, chat, views, settings };
  startRouter(outlet, nav, [
    { path: '/', label: 'Chat', mount: (element) => mountHomePage(element, app) },
    { path: '/tasks/:id', mount: (element, params) => mountTaskPage(element, app, params.id!) },
    { path: '/agents', label: 'Agents', mount: (element) => mountAgentsPage(element, app) },
    { path: '/settings', label: 'Model', mount: (element) => mountSettingsPage(element, settings) },
    {
      path: '/inspector',
      label: 'Inspector',
      mount: (element) => mountInspector(element, { store, recorder }),
    },
  ]);
  document.body.dataset.restored = String(restored.length);
  document.body.dataset.ready = settings.mode;
}

start().catch((error: Error) => {
  document.body.dataset.ready = 'error';
  document.querySelector('#outlet')!.textContent = `troupe could not start: ${error.message}`;
  console.error(error);
});
