import type { Lane } from '@troupe/inspect';
import { h } from './dom.js';
import { absolute, duration, sinceStart } from './format.js';

/**
 * The lanes of a run over time: one row per main-agent run and task, its time in the queue
 * (hatched) and its run time (a bar, coloured by how it ended), with a cursor at the current
 * step. Above them, how many tasks ran at once against the supervisor's limit. Clicking a lane
 * opens its actor at the current step.
 */
export function lanesView(
  lanes: readonly Lane[],
  span: { start: number; end: number },
  now: number,
  limit: number | undefined,
  selected: string | undefined,
  onSelect: (sessionId: string) => void,
): HTMLElement {
  const section = h('section', { class: 'lanes', 'aria-label': 'Lanes over time' });
  const total = Math.max(1, span.end - span.start);
  // Times before the run's start (a replay's unstamped first records) are drawn at its start.
  const clamp = (at: number) => Math.max(span.start, at);
  const pct = (at: number) => `${(((clamp(at) - span.start) / total) * 100).toFixed(3)}%`;
  const width = (from: number, to: number) =>
    `${Math.max(0.4, ((clamp(to) - clamp(from)) / total) * 100).toFixed(3)}%`;
  const tasks = lanes.filter((lane) => lane.kind === 'task');
  let peak = 0;
  for (const lane of tasks) {
    const running = tasks.filter(
      (other) => other.startedAt <= lane.startedAt && (other.endedAt ?? span.end) > lane.startedAt,
    ).length;
    peak = Math.max(peak, running);
  }
  const runningNow = tasks.filter((lane) => lane.startedAt <= now && (lane.endedAt ?? span.end) > now).length;
  const queuedNow = tasks.filter(
    (lane) => lane.queuedAt !== undefined && lane.queuedAt <= now && lane.startedAt > now,
  ).length;
  section.append(
    h(
      'h2',
      {},
      'Lanes ',
      h(
        'span',
        { class: 'muted', 'data-testid': 'concurrency' },
        `${runningNow} task${runningNow === 1 ? '' : 's'} running, ${queuedNow} queued at this step` +
          (limit !== undefined ? ` · limit ${limit} at a time (peak ${peak})` : ''),
      ),
    ),
  );
  if (lanes.length === 0) {
    section.append(h('p', { class: 'muted' }, 'No task or main-agent run in this timeline.'));
    return section;
  }
  const rows = h('ol', { class: 'lane-rows' });
  for (const lane of lanes) {
    const end = lane.endedAt ?? span.end;
    const label = `${lane.agent ? `${lane.agent} · ` : ''}${lane.name}`;
    const queued =
      lane.queuedAt !== undefined && lane.startedAt - lane.queuedAt > 0
        ? h('span', {
            class: 'lane-queued',
            style: `left:${pct(lane.queuedAt)};width:${width(lane.queuedAt, lane.startedAt)}`,
            title: `queued ${duration(lane.startedAt - lane.queuedAt)}`,
          })
        : undefined;
    rows.append(
      h(
        'li',
        {},
        h(
          'button',
          {
            type: 'button',
            class: `lane${lane.sessionId === selected ? ' selected' : ''}`,
            'data-lane': lane.sessionId,
            'aria-label': `${label}: ${lane.status}, ${duration(end - clamp(lane.startedAt))}`,
            title: `${label}\nstarted ${sinceStart(lane.startedAt, span.start)} (${absolute(clamp(lane.startedAt))})\n${lane.status}, ${duration(end - clamp(lane.startedAt))}`,
            onclick: () => onSelect(lane.sessionId),
          },
          h('span', { class: 'lane-label' }, label),
          h(
            'span',
            { class: 'lane-track' },
            queued,
            h('span', {
              class: `lane-bar lane-${lane.kind} status-${lane.status}`,
              style: `left:${pct(lane.startedAt)};width:${width(lane.startedAt, end)}`,
            }),
            h('span', { class: 'lane-cursor', style: `left:${pct(now)}` }),
          ),
        ),
      ),
    );
  }
  section.append(rows);
  return section;
}
