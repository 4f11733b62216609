import { type Message, toolResultText } from '@troupe/core';
import { transcriptOf } from '@troupe/core/store';
import type { AppContext } from '../app/app-context.js';
import { h } from '../app/dom.js';
import { taskLine } from '../app/task-views.js';

function messageText(message: Message): string {
  if (typeof message.content === 'string') return message.content;
  return message.content
    .map((block) =>
      block.type === 'text'
        ? block.text
        : block.type === 'tool_use'
          ? `→ ${block.name} ${JSON.stringify(block.input)}`
          : block.type === 'tool_result'
            ? `← ${toolResultText(block.content)}`.slice(0, 600)
            : '',
    )
    .filter(Boolean)
    .join('\n');
}

/** One task: its progress line, transcript (from the store, also after a reload) and result. */
export function mountTaskPage(element: HTMLElement, app: AppContext, taskId: string): () => void {
  const view = app.views.views.get(taskId);
  element.append(h('p', {}, h('a', { href: '#/' }, '← back')), h('h2', {}, view ? taskLine(view) : taskId));
  const body = h('div', {}, 'Loading…');
  element.append(body);
  void (async () => {
    // The conversation as the task's machine holds it: the snapshot, or the journal replayed.
    const stored = await app.store.getTask(taskId);
    const snapshot = await app.store.loadSnapshot(taskId).catch(() => undefined);
    const { entries } = await app.store.loadJournal(taskId);
    const messages = stored ? transcriptOf(stored.spec, snapshot, entries) : [];
    const result = await app.store.loadResult(taskId).catch(() => undefined);
    body.replaceChildren(
      h('h3', {}, 'Transcript'),
      h(
        'ol',
        { class: 'transcript' },
        ...messages.map((message) =>
          h('li', { class: `msg-${message.role}` }, h('pre', {}, messageText(message))),
        ),
      ),
      h('h3', {}, 'Result'),
      h(
        'pre',
        { class: 'result' },
        result
          ? `${result.status} (${result.terminateReason})\n\n${String(result.output ?? '')}`
          : 'Not finished.',
      ),
    );
  })();
  return () => {};
}
