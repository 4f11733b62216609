import type { TeamState, TeamTask } from '@troupe/core';
import { type TeamArrow, type TeamTrack, type TimelineModel, teamBoard, teamStateAt } from '@troupe/inspect';
import { h } from './dom.js';
import { absolute, sinceStart } from './format.js';
import { arrowState, memberColour, type TeamActions, type TeamAt, teamChart } from './team-chart.js';

const COLUMNS = [
  ['pending', 'Pending'],
  ['in_progress', 'In progress'],
  ['completed', 'Completed'],
] as const;

/**
 * An agent team at the step: its members over time with their spells and the messages between
 * them as arrows (`teamChart`), each member with its state and its spells (a button opens the
 * spell's task in the chart and the trace), every message (a button selects it: its text, summary
 * and ids), and the task list as a board (pending / in progress / completed, each card with its
 * owner and what blocks it) as it stood at the step.
 */
export function teamView(track: TeamTrack, at: TeamAt, width: number, actions: TeamActions): HTMLElement {
  const state = teamStateAt(track, at.recordIndex);
  const sent = track.messages.filter((message) => message.sentRecord <= at.recordIndex).length;
  const working = Object.values(state.members).filter((member) => member.status === 'working').length;
  const ended = state.ended ? ` · ended ${state.ended.status} (${state.ended.terminateReason})` : '';
  return h(
    'section',
    { class: 'team', 'aria-label': `Team ${track.name}`, 'data-testid': 'team', 'data-team': track.teamId },
    h(
      'h2',
      {},
      `Team ${track.name} `,
      h(
        'span',
        { class: 'muted', 'data-testid': 'team-summary' },
        `${track.members.length} members, ${working} working · ${sent} of ${track.messages.length} messages sent at this step${ended}`,
      ),
    ),
    h('div', { class: 'team-chart-frame' }, teamChart(track, at, width, actions)),
    h(
      'div',
      { class: 'team-lists' },
      membersList(track, state, at, actions),
      messagesList(track, at, actions),
    ),
    board(state),
  );
}

function membersList(track: TeamTrack, state: TeamState, at: TeamAt, actions: TeamActions): HTMLElement {
  const list = h('ul', { class: 'team-members' });
  for (const member of track.members) {
    const now = state.members[member.name];
    const spells = track.spells.filter((spell) => spell.member === member.name);
    const role = [
      member.agent,
      member.lead ? 'lead' : undefined,
      member.planModeRequired ? 'plan approval' : undefined,
    ]
      .filter(Boolean)
      .join(' · ');
    list.append(
      h(
        'li',
        { 'data-member': member.name },
        h('span', { class: 'team-swatch', style: `background:${memberColour(track, member.name)}` }),
        h('strong', {}, member.name),
        h('span', { class: 'muted' }, ` ${role} · `),
        h(
          'span',
          { class: `team-status ${now?.status ?? 'idle'}`, 'data-testid': 'member-status' },
          now?.status ?? 'idle',
        ),
        h(
          'span',
          { class: 'team-spells' },
          ...spells.map((spell) =>
            h(
              'button',
              {
                type: 'button',
                class: `team-spell-button${spell.taskId === at.spell ? ' selected' : ''}`,
                'aria-label': `Open ${member.name}'s spell ${spell.n} (${spell.taskId})${spell.startRecord > at.recordIndex ? ', not started at this step' : ''}`,
                'aria-pressed': spell.taskId === at.spell ? 'true' : 'false',
                title: spell.taskId,
                onclick: () => actions.openSpell(spell.taskId),
              },
              `spell ${spell.n}`,
            ),
          ),
        ),
      ),
    );
  }
  return h('section', { class: 'team-members-pane', 'aria-label': 'Members' }, h('h3', {}, 'Members'), list);
}

function messagesList(track: TeamTrack, at: TeamAt, actions: TeamActions): HTMLElement {
  const pane = h(
    'section',
    { class: 'team-messages-pane', 'aria-label': 'Messages' },
    h('h3', {}, 'Messages'),
  );
  if (track.messages.length === 0) {
    pane.append(h('p', { class: 'muted' }, 'No message yet.'));
    return pane;
  }
  const list = h('ol', { class: 'team-messages' });
  for (const message of track.messages) {
    const state = arrowState(message, at.recordIndex);
    const label = state === 'future' ? 'later' : state === 'in-flight' ? 'waiting' : 'delivered';
    list.append(
      h(
        'li',
        {},
        h(
          'button',
          {
            type: 'button',
            class: `team-message ${state}${message.id === at.message ? ' selected' : ''}`,
            'aria-pressed': message.id === at.message ? 'true' : 'false',
            'data-message': message.id,
            onclick: () => actions.selectMessage(message.id),
          },
          h('span', { class: 'team-message-id' }, message.id),
          ` ${message.from} → ${message.to}`,
          h('span', { class: 'team-message-gist' }, ` ${message.summary ?? message.text}`),
          h('span', { class: 'team-message-state' }, label),
        ),
      ),
    );
  }
  pane.append(list);
  const selected = track.messages.find((message) => message.id === at.message);
  if (selected) pane.append(messageDetail(selected, at, actions));
  return pane;
}

function messageDetail(message: TeamArrow, at: TeamAt, actions: TeamActions): HTMLElement {
  const kinds = {
    message: 'message',
    broadcast: `broadcast (${message.group.join(', ')})`,
    'plan-request': 'plan approval request',
    'plan-answer': 'plan approval answer',
  } as const;
  const time = (value: number) =>
    h(
      'time',
      { datetime: new Date(value).toISOString(), title: absolute(value) },
      sinceStart(value, at.start),
    );
  const delivered =
    message.deliveredAt !== undefined
      ? [
          time(message.deliveredAt),
          ` ${message.delivery === 'woke' ? 'woke' : 'steered into'} ${message.spell}`,
          message.deliveredRecord !== undefined && message.deliveredRecord > at.recordIndex ? ' (later)' : '',
        ]
      : ['not delivered'];
  return h(
    'div',
    {
      class: 'team-message-detail',
      'data-testid': 'team-message',
      role: 'region',
      'aria-label': `Message ${message.id}`,
    },
    h('h4', {}, `${message.id}: ${message.from} → ${message.to}`),
    h(
      'dl',
      {},
      h('dt', {}, 'kind'),
      h('dd', {}, kinds[message.kind]),
      message.summary !== undefined && h('dt', {}, 'summary'),
      message.summary !== undefined && h('dd', {}, message.summary),
      h('dt', {}, 'sent'),
      h('dd', {}, time(message.sentAt)),
      h('dt', {}, 'delivered'),
      h('dd', {}, ...delivered),
    ),
    h('pre', { class: 'team-message-text' }, message.text),
    h(
      'button',
      { type: 'button', onclick: () => actions.goToRecord(message.sentRecord) },
      'Step to when it was sent',
    ),
  );
}

function board(state: TeamState): HTMLElement {
  const columns = teamBoard(state);
  const done = new Set(columns.completed.map((task) => task.id));
  const section = h(
    'section',
    { class: 'team-board', 'aria-label': 'Task board', 'data-testid': 'team-board' },
    h('h3', {}, 'Task list at this step'),
  );
  const grid = h('div', { class: 'team-columns' });
  for (const [status, title] of COLUMNS) {
    const tasks = columns[status];
    grid.append(
      h(
        'section',
        { class: `team-column ${status}`, 'aria-label': title, 'data-column': status },
        h('h4', {}, `${title} `, h('span', { class: 'muted' }, `(${tasks.length})`)),
        tasks.length
          ? h('ul', {}, ...tasks.map((task) => card(task, done)))
          : h('p', { class: 'muted team-empty' }, 'none'),
      ),
    );
  }
  section.append(grid);
  return section;
}

function card(task: TeamTask, done: ReadonlySet<string>): HTMLElement {
  const blockers = task.blockedBy.map((id) => `#${id}${done.has(id) ? ' ✓' : ''}`).join(', ');
  return h(
    'li',
    { class: 'team-card', 'data-task': task.id },
    h('strong', {}, `#${task.id} ${task.subject}`),
    h('span', { class: 'team-card-owner' }, task.owner ? `owner: ${task.owner}` : 'no owner'),
    task.blockedBy.length > 0 && h('span', { class: 'team-card-blocked' }, `blocked by ${blockers}`),
  );
}

/** The first step at which a spell's actor exists, and its session id: where "open the spell" goes. */
export function spellStep(
  model: TimelineModel,
  taskId: string,
): { frame: number; sessionId: string } | undefined {
  for (const frame of model.frames)
    for (const actor of frame.actors.values())
      if ((actor.context.task as { taskId?: unknown } | undefined)?.taskId === taskId)
        return { frame: frame.index, sessionId: actor.sessionId };
  return undefined;
}

/** The first step at or after a record (a team event makes no step of its own). */
export function stepAtRecord(model: TimelineModel, recordIndex: number): number {
  const found = model.frames.find((frame) => frame.recordIndex >= recordIndex);
  return found ? found.index : model.frames.length - 1;
}
