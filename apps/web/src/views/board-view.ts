import type { Runtime } from '@troupe/core';
import { isFinalStatus } from '@troupe/core/store';
import { agentLabel } from '../app/agent-colors.js';
import { h } from '../app/dom.js';
import { type TaskView, type TaskViews, taskLine } from '../app/task-views.js';

/** How a status reads on the board: a denied call makes a completed task "done, denied" (not green). */
export function statusLabel(view: TaskView): string {
  if (view.status === 'awaitingApproval') return 'awaiting approval';
  if (view.status === 'completed' && view.denied?.length) return 'denied';
  return view.status;
}

/** A task's progress line ({@link taskLine}) with its agent's label in the agent's `color`. */
export function taskLineNodes(view: TaskView, color: string | undefined): (Node | string)[] {
  return [agentLabel(view.agent, color), taskLine(view).slice(`[${view.agent}]`.length)];
}

/**
 * The task board: one row per task of {@link TaskViews} (main-agent runs left out), its status,
 * the CLI's progress line (the agent's label in its `color`) linking to the task's page, and Cancel while it runs. Returns the list
 * (with a line saying when there is no task yet) and its unmount function.
 */
export function boardView(
  views: TaskViews,
  runtime: Pick<Runtime, 'cancel' | 'agents'>,
): { element: HTMLElement; unmount: () => void } {
  const board = h('ul', { class: 'board', 'aria-label': 'task board' });
  const empty = h('p', { class: 'muted empty-note' }, 'No task yet: the main agent starts them.');
  const renderRow = (view: TaskView) => {
    if (view.taskId.includes('#')) return;
    const existing = board.querySelector<HTMLElement>(`[data-task="${CSS.escape(view.taskId)}"]`);
    const denied = view.status === 'completed' && Boolean(view.denied?.length);
    const row = h(
      'li',
      {
        class: `task status-${denied ? 'denied' : view.status}`,
        dataset: { task: view.taskId, status: view.status },
      },
      h('span', { class: 'status' }, statusLabel(view)),
      h(
        'a',
        { href: `#/tasks/${encodeURIComponent(view.taskId)}`, class: 'line' },
        ...taskLineNodes(view, runtime.agents.get(view.agent)?.color),
      ),
      !isFinalStatus(view.status) &&
        h(
          'button',
          {
            type: 'button',
            class: 'danger',
            'aria-label': `Cancel ${view.description}`,
            onclick: () => runtime.cancel(view.taskId),
          },
          'Cancel',
        ),
    );
    if (existing) existing.replaceWith(row);
    else board.append(row);
    empty.hidden = true;
  };
  for (const view of views.views.values()) renderRow(view);
  empty.hidden = board.children.length > 0;
  return { element: h('div', {}, board, empty), unmount: views.onChange(renderRow) };
}
