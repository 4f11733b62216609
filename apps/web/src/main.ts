import { createIndexedDbStore } from '@troupe/browser';
import type { AppContext } from './app/app-context.js';
import { createAppRuntime } from './app/app-runtime.js';
import { confirmLinkedBaseURL } from './app/base-url-confirm.js';
import { loadChat } from './app/chat-history.js';
import { ChatLog } from './app/chat-log.js';
import { loadDenials, rememberDenials } from './app/denials.js';
import { showModeBanner } from './app/mode-banner.js';
import { showNotice } from './app/notice.js';
import { readSettings } from './app/settings.js';
import { TaskViews } from './app/task-views.js';
import { lazyPage } from './lazy-page.js';
import { mountHomePage } from './pages/home-page.js';
import { startRouter } from './router.js';

/** How many earlier tasks the board shows after a reload. */
const HISTORY_SIZE = 200;
/** Where model requests go when no base URL is saved. */
const ANTHROPIC_API_URL = 'https://api.anthropic.com';

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
  const { runtime, recorder, toolNames } = await createAppRuntime(settings, store);
  const views = new TaskViews(runtime);
  const denials = await loadDenials();
  rememberDenials(runtime, denials);
  const chat = await loadChat();
  // The session and its chat log exist before restore, so restored background tasks announce
  // into them, whichever page is open.
  const session = runtime.createSession({ sessionKey: chat.sessionKey, messages: chat.messages });
  const chatLog = new ChatLog(runtime, session, chat, settings.baseURL ?? ANTHROPIC_API_URL);
  const { restored, warnings } = await runtime.restore();
  for (const warning of warnings) showNotice(`Restoring tasks: ${warning.message}`);
  // The session's main-agent runs are stored as tasks of depth 0 for the usage ledger: not on the board.
  views.addHistory((await runtime.history({ limit: HISTORY_SIZE, minDepth: 1 })).tasks.reverse());
  views.addDenials(denials);
  setInterval(() => views.tick(), 1_000);
  const app: AppContext = { runtime, store, session, chat, chatLog, views, settings, toolNames };
  showModeBanner(settings);
  startRouter(outlet, nav, [
    { path: '/', label: 'Chat', mount: (element) => mountHomePage(element, app) },
    {
      path: '/tasks/:id',
      mount: (element, params) =>
        lazyPage(
          element,
          () => import('./pages/task-page.js'),
          (page) => page.mountTaskPage(element, app, params.id!),
        ),
    },
    {
      path: '/agents',
      label: 'Agents',
      mount: (element) =>
        lazyPage(
          element,
          () => import('./pages/agents-page.js'),
          (page) => page.mountAgentsPage(element, app),
        ),
    },
    {
      path: '/settings',
      label: 'Model',
      mount: (element) =>
        lazyPage(
          element,
          () => import('./pages/settings-page.js'),
          (page) => page.mountSettingsPage(element, settings),
        ),
    },
    {
      path: '/inspector',
      label: 'Inspector',
      mount: (element) =>
        lazyPage(
          element,
          () => import('./inspector/index.js'),
          (page) =>
            page.mountInspector(element, {
              store,
              recorder,
              fork: (taskId, options) => runtime.fork(taskId, options),
            }),
        ),
    },
  ]);
  document.body.dataset.restored = String(restored.length);
  document.body.dataset.ready = settings.mode;
}

// Whatever escapes a handler is shown at the top of the page with its cause, not lost.
addEventListener('unhandledrejection', (event) => {
  event.preventDefault();
  showNotice(
    `Something failed: ${event.reason instanceof Error ? event.reason.message : String(event.reason)}`,
  );
});

start().catch((error: Error) => {
  document.body.dataset.ready = 'error';
  document.querySelector('#outlet')!.textContent =
    `troupe could not start: ${error.message}. Reload the page to try again; if it keeps failing, switch the model to the offline demo (#/settings).`;
  console.error(error);
});
