import type { ActorState, LoggedEvent } from '@troupe/inspect';
import { actorLabel } from './actor-tree.js';
import { h, pretty } from './dom.js';

const SHOWN = 400;

/**
 * The event log: every event delivered to an actor, with its target, time and payload; the ones
 * not yet reached at this frame are dimmed, the one this frame took is marked `current`. Clicking
 * an event steps to the frame that shows its effect.
 */
export function eventLog(
  events: readonly LoggedEvent[],
  frame: number,
  actors: ReadonlyMap<string, ActorState>,
  onPick: (frame: number) => void,
): HTMLElement {
  const panel = h(
    'section',
    { class: 'event-log', 'aria-label': 'Events' },
    h('h2', {}, `Events (${events.length})`),
  );
  const list = h('ol', {});
  const around = Math.max(0, events.findIndex((event) => event.frame > frame) - SHOWN / 2);
  for (const event of events.slice(around, around + SHOWN)) {
    const target = actors.get(event.sessionId);
    const future = event.frame > frame || event.frame < 0;
    list.append(
      h(
        'li',
        {
          class: `event${event.frame === frame ? ' current' : ''}${future ? ' future' : ''}`,
          'data-frame': event.frame,
        },
        h(
          'details',
          {},
          h(
            'summary',
            {
              onclick: (click) => {
                if (event.frame >= 0 && (click as MouseEvent).detail > 1) onPick(event.frame);
              },
            },
            h('time', {}, new Date(event.at).toISOString().slice(11, 23)),
            h('span', { class: 'event-type' }, event.event.type),
            h('span', { class: 'event-target' }, target ? actorLabel(target) : event.sessionId),
            h(
              'button',
              {
                type: 'button',
                class: 'go',
                title: 'Step to this event',
                onclick: () => event.frame >= 0 && onPick(event.frame),
              },
              '→',
            ),
          ),
          h('pre', {}, pretty(event.event)),
        ),
      ),
    );
  }
  panel.append(list);
  return panel;
}
