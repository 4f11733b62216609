import { type ActorState, formatStateValue, type RunNode } from '@troupe/inspect';
import { h } from './dom.js';
import { duration, tokens } from './format.js';

/** A label for an actor: a task's agent and task id, a main-agent run's, the supervisor. */
export function actorLabel(actor: ActorState): string {
  const task = actor.context.task as { agent?: unknown; taskId?: unknown } | undefined;
  if (actor.name === 'supervisor') return 'supervisor';
  // A replayed task's actor is named after its machine; its task id is in its context.
  const name = typeof task?.taskId === 'string' ? task.taskId : actor.name;
  return typeof task?.agent === 'string' ? `${task.agent} · ${name}` : name;
}

const KIND: Record<RunNode['kind'], string> = {
  supervisor: 'supervisor',
  session: 'session',
  run: 'main-agent run',
  task: 'task',
  actor: 'actor',
};

/**
 * The run tree at one frame: the supervisor, its sessions, each session's main-agent runs and the
 * tasks each run started, with agent, status, duration and tokens; queued tasks with their place
 * in the queue. Clicking an actor opens it (chart and trace) at the current step; the one shown
 * is marked `selected`.
 */
export function actorTree(
  roots: readonly RunNode[],
  actors: ReadonlyMap<string, ActorState>,
  selected: string | undefined,
  onSelect: (sessionId: string) => void,
): HTMLElement {
  const branch = (list: readonly RunNode[]): HTMLElement => {
    const ul = h('ul', {});
    for (const node of list) {
      const actor = node.sessionId ? actors.get(node.sessionId) : undefined;
      const name = actor ? actorLabel(actor) : `${node.agent ? `${node.agent} · ` : ''}${node.name}`;
      const facts = [
        node.queuePosition ? `queued #${node.queuePosition}` : undefined,
        node.durationMs !== undefined ? duration(node.durationMs) : undefined,
        node.tokens ? `${tokens(node.tokens.input + node.tokens.output)} tok` : undefined,
      ].filter(Boolean);
      const body = [
        h('span', { class: 'actor-name' }, name),
        h('span', { class: 'actor-state' }, actor ? formatStateValue(actor.value) : 'in the queue'),
        h('span', { class: `status status-${node.status.replace(/\W/g, '-')}` }, node.status),
        facts.length ? h('span', { class: 'actor-facts' }, facts.join(' · ')) : undefined,
      ];
      ul.append(
        h(
          'li',
          { 'data-kind': node.kind },
          actor
            ? h(
                'button',
                {
                  class: `actor${node.sessionId === selected ? ' selected' : ''}${actor.status !== 'active' ? ' done' : ''}`,
                  'data-session': node.sessionId,
                  type: 'button',
                  title: `${KIND[node.kind]} ${node.name}`,
                  'aria-pressed': node.sessionId === selected ? 'true' : 'false',
                  onclick: () => onSelect(node.sessionId!),
                },
                ...body,
              )
            : h('div', { class: 'actor queued', 'data-queued': node.name }, ...body),
          node.children.length ? branch(node.children) : undefined,
        ),
      );
    }
    return ul;
  };
  return h('nav', { class: 'actor-tree', 'aria-label': 'Runs' }, h('h2', {}, 'Runs'), branch(roots));
}
