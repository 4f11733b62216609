import type { ChatLine } from '../app/chat-history.js';
import type { ChatLog } from '../app/chat-log.js';
import { h } from '../app/dom.js';
import { renderMarkdown } from '../app/markdown.js';

function lineElement(log: ChatLog, line: ChatLine): HTMLElement {
  if (line.role === 'error') {
    const retry =
      line.retry !== undefined &&
      h(
        'button',
        {
          type: 'button',
          onclick: (event: Event) => {
            (event.currentTarget as HTMLButtonElement).remove();
            log.retry(line);
          },
        },
        'Retry',
      );
    return h(
      'li',
      { class: 'chat-error', role: 'alert' },
      h('strong', {}, line.title ?? 'Error'),
      h('p', { class: 'cause' }, line.text),
      line.advice ? h('p', { class: 'advice' }, line.advice) : null,
      retry,
    );
  }
  const item = h('li', { class: `chat-${line.role}` });
  if (line.role === 'assistant') item.append(renderMarkdown(line.text));
  else item.textContent = line.text;
  return item;
}

/**
 * The conversation: every line of the {@link ChatLog} (assistant text as safe Markdown, errors
 * with their cause, advice and a retry button), then the reply streaming in, its reasoning in a
 * "Reasoning" box. Returns the list and its unmount function.
 */
export function chatView(log: ChatLog): { element: HTMLElement; unmount: () => void } {
  const list = h('ol', { class: 'chat-log', 'aria-label': 'chat', 'aria-live': 'polite' });
  const live = h('li', { class: 'chat-assistant chat-live', 'aria-busy': 'true' });
  let shown = 0;
  const render = () => {
    const lines = log.lines;
    for (; shown < lines.length; shown++)
      list.insertBefore(lineElement(log, lines[shown]!), live.isConnected ? live : null);
    if (!log.live) {
      live.remove();
      return;
    }
    const { thinking, text } = log.live;
    live.replaceChildren(text ? renderMarkdown(text) : h('span', { class: 'muted' }, 'Thinking…'));
    if (thinking)
      live.prepend(
        h('details', { class: 'reasoning', open: true }, h('summary', {}, 'Reasoning'), h('p', {}, thinking)),
      );
    list.append(live);
  };
  render();
  return { element: list, unmount: log.onChange(render) };
}
