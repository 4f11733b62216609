import { type ApprovalRequest, FINAL_TASK_EVENTS, type Runtime } from '@troupe/core';
import { h } from './dom.js';

type ApprovalRuntime = Pick<Runtime, 'on' | 'approve' | 'deny' | 'pendingApprovals'>;

/** Runtime events after which the list of waiting approvals may have changed. */
const CHANGES = ['approval.requested', 'approval.resolved', ...FINAL_TASK_EVENTS] as const;

/**
 * The approvals panel: the runtime's waiting approvals (`pendingApprovals()`), drawn again after
 * every event that can change them, so a card never outlives its approval or its task. "Always
 * allow" also approves the other waiting calls of the same tool in the same session, as the CLI
 * does, and says which. A decision the runtime refuses (the approval went meanwhile) is said in
 * the panel, never thrown at the page. Returns the panel and its unmount function.
 */
export function approvalsPanel(runtime: ApprovalRuntime): { element: HTMLElement; unmount: () => void } {
  const list = h('ul', { class: 'approvals', 'aria-label': 'approvals' });
  const empty = h('p', { class: 'muted empty-note' }, 'No tool call is waiting for your approval.');
  const status = h('p', { class: 'approval-status', role: 'status' });
  const element = h('div', { class: 'approvals-panel' }, status, list, empty);

  const decide = (what: string, act: () => void) => {
    try {
      act();
    } catch (error) {
      status.textContent = `${what}: ${(error as Error).message}`;
    }
    render();
  };
  const alwaysAllow = (request: ApprovalRequest) =>
    decide(`Always allow ${request.tool}`, () => {
      runtime.approve(request.id, { always: true });
      const also: string[] = [];
      for (const pending of runtime.pendingApprovals()) {
        if (pending.tool !== request.tool || pending.sessionKey !== request.sessionKey) continue;
        runtime.approve(pending.id);
        also.push(`[${pending.agent}] ${pending.description}`);
      }
      status.textContent = also.length
        ? `Also approved (always allowed ${request.tool}): ${also.join('; ')}.`
        : `${request.tool} is allowed for the rest of this session.`;
    });

  const card = (request: ApprovalRequest) => {
    const reason = h('input', {
      name: 'reason',
      placeholder: 'reason for denying',
      'aria-label': 'reason for denying',
    });
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
      h(
        'div',
        { class: 'actions' },
        h(
          'button',
          { type: 'button', onclick: () => decide('Approve', () => runtime.approve(request.id)) },
          'Approve',
        ),
        h('button', { type: 'button', onclick: () => alwaysAllow(request) }, `Always allow ${request.tool}`),
        reason,
        h(
          'button',
          {
            type: 'button',
            class: 'danger',
            onclick: () =>
              decide('Deny', () => runtime.deny(request.id, reason.value || 'Denied by the user.')),
          },
          'Deny',
        ),
      ),
    );
  };

  const render = () => {
    const pending = runtime.pendingApprovals();
    const shown = new Map([...list.children].map((item) => [(item as HTMLElement).dataset.approval, item]));
    for (const [id, item] of shown) if (!pending.some((request) => request.id === id)) item.remove();
    for (const request of pending) if (!shown.has(request.id)) list.append(card(request));
    empty.hidden = pending.length > 0;
  };
  // Drawn at the event and again once the runtime has finished handling it.
  const stops = CHANGES.map((name) =>
    runtime.on(name, () => {
      render();
      queueMicrotask(render);
    }),
  );
  render();
  return {
    element,
    unmount: () => {
      for (const stop of stops) stop();
    },
  };
}
