import type { ActorState, LoggedEvent } from '@troupe/inspect';
import { actorLabel } from './actor-tree.js';
import { h, pretty } from './dom.js';
import { absolute, sinceStart } from './format.js';

const SHOWN = 400;

/**
 * The event log: every event delivered to an actor, with its target (named as the actor is
 * named over the whole timeline, even before it appears), its time from the run's start
 * (absolute on hover) and its payload; the ones not yet reached at this frame are dimmed, the one
 * this frame took is marked `current`. Clicking an event steps to the frame that shows its effect.
 */
export function eventLog(
  events: readonly LoggedEvent[],
  frame: number,
  actors: ReadonlyMap<string, ActorState>,
  onPick: (frame: number) => void,
  start: number,
): HTMLElement {
  // One count on the page: the step counter. Each event here is one step (the one this step took is
  // marked); the effects' own events are not listed (their parent's events carry their work).
  const panel = h('section', { class: 'event-log', 'aria-label': 'Events' }, h('h2', {}, 'Events'));
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
            h(
              'time',
              { datetime: new Date(event.at).toISOString(), title: absolute(event.at) },
              sinceStart(event.at, start),
            ),
            h('span', { class: 'event-type' }, event.event.type),
            h('span', { class: 'event-target' }, target ? actorLabel(target) : event.sessionId),
          ),
          h('pre', {}, pretty(event.event)),
        ),
        h(
          'button',
          {
            type: 'button',
            class: 'go',
            title: 'Step to this event',
            'aria-label': `Step to ${event.event.type}`,
            disabled: event.frame < 0,
            onclick: () => event.frame >= 0 && onPick(event.frame),
          },
          '→',
        ),
      ),
    );
  }
  panel.append(list);
  return panel;
}
