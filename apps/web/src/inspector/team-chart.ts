import type { TeamArrow, TeamTrack } from '@troupe/inspect';
import { s } from './dom.js';
import { duration, sinceStart } from './format.js';

/** Where the team view is: the step's record and time, and what is selected. */
export interface TeamAt {
  /** The step's record (team events at or before it have happened). */
  recordIndex: number;
  /** The step's time. */
  time: number;
  /** The run's start: times are shown from it. */
  start: number;
  /** The selected message's id. */
  message?: string | undefined;
  /** The task id of the selected spell (the actor open in the chart and trace). */
  spell?: string | undefined;
}

/** What a click in the team view does. */
export interface TeamActions {
  selectMessage(id: string): void;
  openSpell(taskId: string): void;
  goToRecord(recordIndex: number): void;
}

/** One colour per member (lanes, spells and the arrows it sent), in the team's order. */
const COLOURS = ['#6a4fc4', '#2f6fd0', '#1f8a6f', '#b86a12', '#b8436b', '#4f7a1f', '#7a5230', '#2b7c9a'];

/** A member's colour; the host (messages from `team.send`) is grey. */
export function memberColour(track: TeamTrack, name: string): string {
  const index = track.members.findIndex((member) => member.name === name);
  return index < 0 ? '#5d6470' : COLOURS[index % COLOURS.length]!;
}

/** The rows of the chart: `host` first when the host sent a message, then the members. */
export function teamRows(track: TeamTrack): string[] {
  const host = track.messages.some((message) => message.from === 'host') ? ['host'] : [];
  return [...host, ...track.members.map((member) => member.name)];
}

/** A message's state at the step: not sent yet, sent and waiting (in flight), or delivered. */
export function arrowState(arrow: TeamArrow, recordIndex: number): 'future' | 'in-flight' | 'delivered' {
  if (arrow.sentRecord > recordIndex) return 'future';
  return arrow.deliveredRecord !== undefined && arrow.deliveredRecord <= recordIndex
    ? 'delivered'
    : 'in-flight';
}

const ROW = 36;
const TOP = 22;

/**
 * The team over time, as SVG: one lane per member, its working spells as bars (coloured by member;
 * failed or cancelled hatched red), each message an arrow from its sender's lane when it was sent
 * to its receiver's when it was delivered (a broadcast: one arrow per teammate), a cursor at the
 * step. Messages not sent yet at the step are faint, messages waiting are dashed. Pointer only
 * (hidden from assistive technology): the members' spell buttons and the message list below are
 * the same choices for the keyboard.
 */
export function teamChart(track: TeamTrack, at: TeamAt, width: number, actions: TeamActions): SVGElement {
  const rows = teamRows(track);
  const gutter = width < 560 ? 58 : 96;
  const right = 10;
  const height = TOP + rows.length * ROW + 6;
  const end = Math.max(track.end, ...track.spells.map((spell) => spell.endedAt ?? track.end));
  const span = Math.max(1, end - track.start);
  const x = (time: number) =>
    gutter + ((Math.min(end, Math.max(track.start, time)) - track.start) / span) * (width - gutter - right);
  const y = (name: string) => TOP + Math.max(0, rows.indexOf(name)) * ROW + ROW / 2;
  const svg = s('svg', {
    class: 'team-chart',
    width,
    height,
    viewBox: `0 0 ${width} ${height}`,
    'aria-hidden': 'true',
    'data-testid': 'team-chart',
  });
  const defs = s('defs');
  for (const [id, colour] of [
    ['team-head', '#3d434d'],
    ['team-head-selected', '#3554d1'],
  ] as const)
    defs.append(
      s(
        'marker',
        // In px, not stroke widths: a selected (thicker) arrow keeps the same head.
        {
          id,
          viewBox: '0 0 10 10',
          refX: 9,
          refY: 5,
          markerWidth: 9,
          markerHeight: 9,
          markerUnits: 'userSpaceOnUse',
          orient: 'auto',
        },
        s('path', { d: 'M0,0 L10,5 L0,10 z', fill: colour }),
      ),
    );
  svg.append(defs);
  // The time axis: the start and the end, from the run's start.
  svg.append(
    s('text', { x: gutter, y: 12, class: 'team-axis' }, sinceStart(track.start, at.start)),
    s(
      'text',
      { x: width - right, y: 12, class: 'team-axis', 'text-anchor': 'end' },
      sinceStart(end, at.start),
    ),
  );
  for (const name of rows) {
    const member = track.members.find((candidate) => candidate.name === name);
    svg.append(
      s('line', { x1: gutter, x2: width - right, y1: y(name), y2: y(name), class: 'team-lane' }),
      s(
        'text',
        { x: 4, y: y(name) + 4, class: `team-row-label${member?.lead ? ' lead' : ''}`, 'data-row': name },
        name,
      ),
    );
  }
  for (const spell of track.spells) {
    const started = spell.startRecord <= at.recordIndex;
    const ended = spell.endRecord !== undefined && spell.endRecord <= at.recordIndex;
    const to = ended ? spell.endedAt! : started ? Math.max(spell.startedAt, at.time) : (spell.endedAt ?? end);
    const bar = s(
      'rect',
      {
        x: x(spell.startedAt),
        y: y(spell.member) - 8,
        width: Math.max(3, x(to) - x(spell.startedAt)),
        height: 16,
        rx: 3,
        fill: memberColour(track, spell.member),
        class: `team-spell${started ? '' : ' future'}${spell.status && spell.status !== 'completed' ? ' failed' : ''}${spell.taskId === at.spell ? ' selected' : ''}`,
        'data-spell': spell.taskId,
      },
      s(
        'title',
        {},
        `${spell.member}: spell ${spell.n} (${spell.taskId})\n${spell.status ?? 'working'}${spell.endedAt ? `, ${duration(spell.endedAt - spell.startedAt)}` : ''}`,
      ),
    );
    bar.addEventListener('click', () => actions.openSpell(spell.taskId));
    svg.append(bar);
  }
  for (const arrow of track.messages) {
    const state = arrowState(arrow, at.recordIndex);
    const selected = arrow.id === at.message;
    const delivered = arrow.deliveredAt ?? Math.max(arrow.sentAt, at.time);
    const points = { x1: x(arrow.sentAt), y1: y(arrow.from), x2: x(delivered), y2: y(arrow.to) };
    // Stop the head at the lane's edge, not on the line, so it reads as arriving.
    const towards = points.y2 > points.y1 ? -6 : 6;
    const group = s('g', {
      class: `team-arrow ${state}${selected ? ' selected' : ''}`,
      'data-message': arrow.id,
    });
    group.append(
      s('title', {}, `${arrow.id} ${arrow.from} → ${arrow.to}: ${arrow.summary ?? arrow.text.slice(0, 80)}`),
      s('line', { ...points, class: 'team-arrow-hit' }),
      s('line', {
        ...points,
        y2: points.y2 + towards,
        stroke: selected ? '#3554d1' : memberColour(track, arrow.from),
        'marker-end': `url(#${selected ? 'team-head-selected' : 'team-head'})`,
        class: 'team-arrow-line',
      }),
      s('circle', { cx: points.x1, cy: points.y1, r: 2.5, fill: memberColour(track, arrow.from) }),
    );
    group.addEventListener('click', () => actions.selectMessage(arrow.id));
    svg.append(group);
  }
  svg.append(
    s('line', { x1: x(at.time), x2: x(at.time), y1: TOP - 4, y2: height - 2, class: 'team-cursor' }),
  );
  return svg;
}
