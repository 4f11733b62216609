import type { AppContext } from '../app/app-context.js';
import { approvalsPanel } from '../app/approvals-panel.js';
import { DEMO_REQUEST } from '../app/demo-model.js';
import { h } from '../app/dom.js';
import { boardView } from '../views/board-view.js';
import { chatView } from '../views/chat-view.js';

/** Chat with the main agent, the approvals panel and the live task board. */
export function mountHomePage(element: HTMLElement, app: AppContext): () => void {
  const { runtime, session, chatLog, views } = app;
  const chat = chatView(chatLog);
  const input = h('textarea', {
    name: 'message',
    rows: 2,
    placeholder: 'Ask the main agent… (Enter sends, Shift+Enter for a new line)',
    'aria-label': 'message to the main agent',
  });
  const submit = () => {
    chatLog.send(input.value);
    input.value = '';
  };
  // Enter sends, Shift+Enter breaks the line (as in the CLI); not while an IME composes.
  input.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      submit();
    }
  });
  const form = h(
    'form',
    {
      class: 'chat-form',
      onsubmit: (event: Event) => {
        event.preventDefault();
        submit();
      },
    },
    input,
    h('button', { type: 'submit' }, 'Send'),
    app.settings.mode === 'demo' &&
      h('button', { type: 'button', onclick: () => chatLog.send(DEMO_REQUEST) }, 'Run the demo'),
    h(
      'button',
      { type: 'button', class: 'danger', onclick: () => runtime.cancelSession(session.sessionKey) },
      'Cancel session',
    ),
  );
  const approvals = approvalsPanel(runtime);
  const board = boardView(views, runtime);
  const usage = h('div', { class: 'usage-panel' });
  element.append(
    h(
      'section',
      { class: 'chat', 'aria-labelledby': 'chat-heading' },
      h('h2', { id: 'chat-heading' }, 'Chat'),
      chat.element,
      form,
    ),
    h(
      'section',
      { class: 'side' },
      h('h2', {}, 'Approvals'),
      approvals.element,
      h('h2', {}, 'Tasks'),
      board.element,
      usage,
    ),
  );
  // The usage panel loads on demand (the start chunk's budget); it takes its place once loaded.
  void import('../app/usage-view.js').then((module) => usage.replaceWith(module.usageSection(runtime)));
  element.classList.add('home');
  return () => {
    element.classList.remove('home');
    chat.unmount();
    approvals.unmount();
    board.unmount();
  };
}
