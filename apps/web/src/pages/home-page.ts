import type { ApprovalRequest } from '@troupe/core';
import { isFinalStatus } from '@troupe/core/store';
import type { AppContext } from '../app/app-context.js';
import { saveChat } from '../app/chat-history.js';
import { DEMO_REQUEST } from '../app/demo-model.js';
import { h } from '../app/dom.js';
import { type TaskView, taskLine } from '../app/task-views.js';
import { usageSection } from '../app/usage-view.js';

/** Chat with the main agent, the approvals panel and the live task board. */
export function mountHomePage(element: HTMLElement, app: AppContext): () => void {
  const { runtime, session, chat, views } = app;
  const log = h('ol', { class: 'chat-log', 'aria-label': 'chat' });
  const addLine = (role: 'user' | 'assistant' | 'announcement', text: string) =>
    log.append(h('li', { class: `chat-${role}` }, text));
  for (const line of chat.lines) addLine(line.role, line.text);
  const remember = (role: 'user' | 'assistant' | 'announcement', text: string) => {
    chat.lines.push({ role, text });
    chat.messages = [...session.messages];
    void saveChat(chat);
    addLine(role, text);
  };
  const input = h('textarea', { name: 'message', rows: 2, placeholder: 'Ask the main agent…' });
  const send = (text: string) => {
    if (!text.trim()) return;
    remember('user', text);
    void session.send(text).catch((error: Error) => remember('assistant', `Error: ${error.message}`));
  };
  const form = h(
    'form',
    {
      class: 'chat-form',
      onsubmit: (event: Event) => {
        event.preventDefault();
        send(input.value);
        input.value = '';
      },
    },
    input,
    h('button', { type: 'submit' }, 'Send'),
    app.settings.mode === 'demo' &&
      h('button', { type: 'button', onclick: () => send(DEMO_REQUEST) }, 'Run the demo'),
    h(
      'button',
      { type: 'button', class: 'danger', onclick: () => runtime.cancelSession(session.sessionKey) },
      'Cancel session',
    ),
  );
  // An announcement is the text the main agent is given; the page shows its first sentence.
  const stopMessages = session.on('message', (message) =>
    message.kind === 'reply'
      ? remember('assistant', message.text)
      : remember('announcement', message.text.replace('[Background work update] ', '').split('\n')[0]!),
  );

  const approvals = h('ul', { class: 'approvals', 'aria-label': 'approvals' });
  const approvalRow = (request: ApprovalRequest) => {
    const reason = h('input', { name: 'reason', placeholder: 'reason for denying' });
    return h(
      'li',
      { dataset: { approval: request.id } },
      h(
        'div',
        {},
        `[${request.agent}] ${request.description} wants `,
        h('code', {}, request.tool),
        ` (${request.access})`,
      ),
      h('pre', {}, JSON.stringify(request.input, null, 2).slice(0, 400)),
      h('button', { onclick: () => runtime.approve(request.id) }, 'Approve'),
      h(
        'button',
        { onclick: () => runtime.approve(request.id, { always: true }) },
        `Always allow ${request.tool}`,
      ),
      reason,
      h(
        'button',
        { class: 'danger', onclick: () => runtime.deny(request.id, reason.value || 'Denied by the user.') },
        'Deny',
      ),
    );
  };
  for (const request of runtime.pendingApprovals()) approvals.append(approvalRow(request));
  const stopRequested = runtime.on('approval.requested', (request) => approvals.append(approvalRow(request)));
  const stopResolved = runtime.on('approval.resolved', (request) =>
    approvals.querySelector(`[data-approval="${CSS.escape(request.id)}"]`)?.remove(),
  );

  const board = h('ul', { class: 'board', 'aria-label': 'task board' });
  const renderRow = (view: TaskView) => {
    if (view.taskId.includes('#')) return;
    const existing = board.querySelector<HTMLElement>(`[data-task="${CSS.escape(view.taskId)}"]`);
    const row = h(
      'li',
      { class: `task status-${view.status}`, dataset: { task: view.taskId, status: view.status } },
      h('span', { class: 'status' }, view.status),
      h('a', { href: `#/tasks/${encodeURIComponent(view.taskId)}`, class: 'line' }, taskLine(view)),
      !isFinalStatus(view.status) &&
        h('button', { class: 'danger', onclick: () => runtime.cancel(view.taskId) }, 'Cancel'),
    );
    if (existing) existing.replaceWith(row);
    else board.append(row);
  };
  for (const view of views.views.values()) renderRow(view);
  const stopViews = views.onChange(renderRow);

  element.append(
    h('section', { class: 'chat' }, h('h2', {}, 'Chat'), log, form),
    h(
      'section',
      { class: 'side' },
      h('h2', {}, 'Approvals'),
      approvals,
      h('h2', {}, 'Tasks'),
      board,
      usageSection(runtime),
    ),
  );
  element.classList.add('home');
  return () => {
    element.classList.remove('home');
    stopMessages();
    stopRequested();
    stopResolved();
    stopViews();
  };
}
