import { type ActorState, formatStateValue } from '@troupe/inspect';
import { h } from './dom.js';

/** A label for an actor: a task's agent and id, the main agent, the supervisor. */
export function actorLabel(actor: ActorState): string {
  const task = actor.context.task as { agent?: string } | undefined;
  if (actor.name === 'supervisor') return 'supervisor';
  return task?.agent ? `${task.agent} · ${actor.name}` : actor.name;
}

/**
 * The actor tree at one frame: the supervisor at the root, then its children (sub-agents and
 * sessions, a session's main-agent runs under it) grouped under their parents. Each row shows the actor's state and status; the one the
 * chart shows is marked `selected`.
 */
export function actorTree(
  actors: ReadonlyMap<string, ActorState>,
  selected: string | undefined,
  onSelect: (sessionId: string) => void,
): HTMLElement {
  const children = new Map<string | undefined, ActorState[]>();
  for (const actor of actors.values()) {
    const key = actor.parentId && actors.has(actor.parentId) ? actor.parentId : undefined;
    const list = children.get(key) ?? [];
    list.push(actor);
    children.set(key, list);
  }
  const branch = (parent: string | undefined): HTMLElement => {
    const list = h('ul', {});
    for (const actor of children.get(parent) ?? []) {
      const done = actor.status !== 'active';
      list.append(
        h(
          'li',
          {},
          h(
            'button',
            {
              class: `actor${actor.sessionId === selected ? ' selected' : ''}${done ? ' done' : ''}`,
              'data-session': actor.sessionId,
              type: 'button',
              onclick: () => onSelect(actor.sessionId),
            },
            h('span', { class: 'actor-name' }, actorLabel(actor)),
            h('span', { class: 'actor-state' }, formatStateValue(actor.value)),
            h('span', { class: `status status-${actor.status}` }, actor.status),
          ),
          children.has(actor.sessionId) ? branch(actor.sessionId) : undefined,
        ),
      );
    }
    return list;
  };
  return h('nav', { class: 'actor-tree', 'aria-label': 'Actors' }, branch(undefined));
}
