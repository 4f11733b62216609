import {
  FINAL_TASK_EVENTS,
  type Message,
  type RuntimeEventName,
  type TaskSpec,
  toolResultText,
} from '@troupe/core';
import { transcriptOf } from '@troupe/core/store';
import type { AppContext } from '../app/app-context.js';
import { h } from '../app/dom.js';
import { describeError } from '../app/model-errors.js';
import { statusLabel, taskLineNodes } from '../views/board-view.js';

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

const taskLink = (id: string) => h('a', { href: `#/tasks/${encodeURIComponent(id)}` }, id);

/** Where a task came from: the task and step it was forked from, the task it follows up. */
function lineageOf(spec: TaskSpec | undefined): Node[] {
  const lines: Node[] = [];
  if (spec?.forkedFrom) {
    const { taskId, step } = spec.forkedFrom;
    lines.push(
      h(
        'p',
        { dataset: { testid: 'forked-from' } },
        'Forked from ',
        taskLink(taskId),
        ` at its step ${step} (`,
        h('a', { href: `#/inspector?task=${encodeURIComponent(taskId)}` }, 'replay it'),
        ').',
      ),
    );
  }
  if (spec?.followUpOf)
    lines.push(
      h(
        'p',
        { dataset: { testid: 'follow-up-of' } },
        'A follow-up of ',
        taskLink(spec.followUpOf),
        ': it continues that conversation.',
      ),
    );
  return lines;
}

/** Events after which a task's transcript or result may have changed. */
const TASK_EVENTS: RuntimeEventName[] = [
  'task.started',
  'tool.finished',
  'approval.requested',
  'approval.resolved',
  ...FINAL_TASK_EVENTS,
];

/**
 * One task: its progress line and status (live, from the board's views), its transcript (from the
 * store, also after a reload) and result, read again whenever the task moves. A failed task shows
 * its error with the cause and a way on, and can be run again (a new task with the same agent,
 * description and prompt).
 */
export function mountTaskPage(element: HTMLElement, app: AppContext, taskId: string): () => void {
  const heading = h('h2', { class: 'task-line' }, taskId);
  const status = h('p', { class: 'task-status', role: 'status' });
  const lineage = h('div', { class: 'task-lineage' });
  const body = h('div', {}, 'Loading…');
  element.append(h('p', {}, h('a', { href: '#/' }, '← back')), heading, status, lineage, body);
  const showView = () => {
    const view = app.views.views.get(taskId);
    if (!view) return;
    heading.replaceChildren(...taskLineNodes(view, app.runtime.agents.get(view.agent)?.color));
    status.dataset.status = view.status;
    status.textContent = `Status: ${statusLabel(view)}`;
  };
  let loading = false;
  let again = false;
  const load = async (): Promise<void> => {
    if (loading) {
      again = true;
      return;
    }
    loading = true;
    try {
      // What the runtime has written so far, then the conversation as the task's machine holds it:
      // the snapshot, or the journal replayed.
      await app.store.flush();
      const stored = await app.store.getTask(taskId);
      const snapshot = await app.store.loadSnapshot(taskId).catch(() => undefined);
      const { entries } = await app.store.loadJournal(taskId);
      const messages = stored ? transcriptOf(stored.spec, snapshot, entries) : [];
      const result = await app.store.loadResult(taskId).catch(() => undefined);
      lineage.replaceChildren(...lineageOf(stored?.spec));
      const error =
        result?.error && describeError(result.error, app.settings.baseURL ?? 'https://api.anthropic.com');
      body.replaceChildren(
        ...[
          h('h3', {}, 'Transcript'),
          h(
            'ol',
            { class: 'transcript' },
            ...messages.map((message) =>
              h('li', { class: `msg-${message.role}` }, h('pre', {}, messageText(message))),
            ),
          ),
          h('h3', {}, 'Result'),
          error
            ? h(
                'div',
                { class: 'task-error', role: 'alert' },
                h('strong', {}, error.title),
                h('p', {}, error.cause),
                h('p', { class: 'advice' }, error.advice),
              )
            : null,
          h(
            'pre',
            { class: 'result' },
            result
              ? `${result.status} (${result.terminateReason})\n\n${String(result.output ?? '')}`
              : 'Not finished.',
          ),
          stored && result && result.status !== 'completed'
            ? h(
                'button',
                {
                  type: 'button',
                  onclick: () => {
                    try {
                      const handle = app.runtime.spawn({
                        agent: stored.spec.agent,
                        description: stored.spec.description,
                        prompt: stored.spec.prompt,
                        sessionKey: stored.spec.sessionKey,
                        background: true,
                      });
                      location.hash = `#/tasks/${encodeURIComponent(handle.id)}`;
                    } catch (thrown) {
                      status.textContent = `Could not run it again: ${(thrown as Error).message}`;
                    }
                  },
                },
                'Run again',
              )
            : null,
        ].filter((node) => node !== null),
      );
    } catch (thrown) {
      body.replaceChildren(
        h('p', { role: 'alert' }, `This task could not be read: ${(thrown as Error).message}`),
      );
    } finally {
      loading = false;
      if (again) {
        again = false;
        void load();
      }
    }
  };
  showView();
  void load();
  const stopView = app.views.onChange((view) => {
    if (view.taskId === taskId) showView();
  });
  const stops = TASK_EVENTS.map((name) =>
    app.runtime.on(name, (event) => {
      if ('taskId' in event && event.taskId === taskId) void load();
    }),
  );
  return () => {
    stopView();
    for (const stop of stops) stop();
  };
}
