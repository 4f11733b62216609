import type { TaskStore } from '@troupe/core';
import {
  type ActorState,
  activePaths,
  buildTimelineModel,
  formatStateValue,
  type Lane,
  runLanes,
  runStart,
  runTree,
  type StepTrace,
  stepTrace,
  type TeamTrack,
  type Timeline,
  type TimelineModel,
  type TimelineRecorder,
  teamTracks,
} from '@troupe/inspect';
import { type Chart, layoutChartToFit } from '@troupe/inspect/chart';
import { actorLabel, actorTree } from './actor-tree.js';
import { createChartView } from './chart-view.js';
import { h } from './dom.js';
import { eventLog } from './event-log.js';
import { type ForkOrigin, type ForkTask, forkForm, taskStep } from './fork-form.js';
import { absolute, sinceStart } from './format.js';
import { lanesView } from './lanes-view.js';
import {
  followRelay,
  openTimelineFile,
  type ReplayShown,
  replayRelayTask,
  replayStoredTask,
} from './sources.js';
import { type TaskOrigin, taskPicker } from './task-picker.js';
import type { TeamActions } from './team-chart.js';
import { spellStep, stepAtRecord, teamView } from './team-view.js';
import { traceView } from './trace-view.js';

/** Where the page gets its timeline: the query of `#/inspector?...`. */
export interface InspectorQuery {
  /**
   * `relay`: follow the live timeline of the local relay that served this page; `store`: the
   * tasks of the CLI's store behind that relay (`task` is one of them); `app`: this app's own
   * runtime, live.
   */
  source?: string;
  /** A stored task to replay: from the app's store, or from the CLI's with `source=store`. */
  task?: string;
}

const PLAY_MS = 450;

/**
 * The offline inspector: a timeline (from the relay, a file or a replayed stored task) stepped
 * frame by frame, with the selected actor's statechart (active state highlighted), the actor tree,
 * the context with what changed, and the event log. Returns the unmount function.
 */
export function createInspectorPage(
  element: HTMLElement,
  host: { store: TaskStore; recorder?: TimelineRecorder | undefined; fork?: ForkTask | undefined },
  query: InspectorQuery,
): () => void {
  const { store, recorder } = host;
  let model: TimelineModel = { frames: [], events: [], definitions: new Map() };
  // Derived once per timeline: every actor as last seen (names for events before it appears), lanes.
  let everyActor = new Map<string, ActorState>();
  let lanes: Lane[] = [];
  // The agent teams of the timeline (its `troupe.team` records) and the message selected in them.
  let teams: TeamTrack[] = [];
  let teamMessage: string | undefined;
  // System prompts by task id, when the source has them (a replay from the app's store).
  let systems: Record<string, string> = {};
  // Whose store the timeline's tasks are in: what "Fork from here" can do with them.
  let origin: ForkOrigin = 'none';
  const chartView = createChartView();
  let frame = -1;
  let pinned: string | undefined;
  let playing: ReturnType<typeof setInterval> | undefined;
  let follow = true;
  const charts = new Map<string, Chart | Error>();
  const stops: (() => void)[] = [];

  const status = h('span', { class: 'source-status', 'data-testid': 'source-status' }, 'No timeline open.');
  const fileInput = h('input', {
    type: 'file',
    accept: '.jsonl,.json,application/x-ndjson',
    'data-testid': 'timeline-file',
  });
  const picker = taskPicker(store, (taskId, origin) => void replay(taskId, origin));
  const counter = h('span', { class: 'counter', 'data-testid': 'step' }, '');
  const clock = h('time', { class: 'step-time', 'data-testid': 'step-time' }, '');
  const current = h('span', { class: 'current-event', 'data-testid': 'frame-event' }, '');
  const slider = h('input', {
    type: 'range',
    min: 0,
    max: 0,
    value: 0,
    'aria-label': 'Step',
    'data-testid': 'slider',
  });
  const button = (label: string, title: string, testid: string, action: () => void) =>
    h(
      'button',
      { type: 'button', title, 'aria-label': title, 'data-testid': testid, onclick: action, disabled: true },
      label,
    );
  const playButton = button('▶', 'Play', 'play', () => togglePlay());
  const panes = h('div', { class: 'panes' });
  const lanesSlot = h('div', { class: 'lanes-slot' });
  const teamSlot = h('div', { class: 'team-slot' });
  const log = h('div', { class: 'log-slot' });
  const transport: (HTMLButtonElement | HTMLInputElement)[] = [
    button('◀◀', 'First step', 'first', () => go(0)),
    button('◀', 'Step back', 'back', () => go(frame - 1)),
    playButton,
    button('▶|', 'Step forward', 'forward', () => go(frame + 1)),
    button('▶▶', 'Last step', 'last', () => go(model.frames.length - 1)),
    slider,
  ];
  const liveButton =
    recorder && button('This app, live', "Follow this app's runtime live", 'app-live', () => followApp());
  if (liveButton) {
    liveButton.disabled = false;
    liveButton.removeAttribute('aria-label');
  }

  const root = h(
    'div',
    { class: 'inspector' },
    h(
      'header',
      { class: 'inspector-bar' },
      h('label', { class: 'file' }, 'Open timeline ', fileInput),
      picker.element,
      liveButton,
      status,
    ),
    h(
      'div',
      { class: 'player', role: 'toolbar', 'aria-label': 'Steps' },
      ...transport,
      counter,
      clock,
      current,
    ),
    teamSlot,
    panes,
    lanesSlot,
    log,
  );
  element.append(root);

  function setTimeline(timeline: Timeline, live = false) {
    const atEnd = frame >= model.frames.length - 1;
    model = buildTimelineModel(timeline);
    everyActor = new Map();
    for (const step of model.frames) for (const [id, actor] of step.actors) everyActor.set(id, actor);
    lanes = runLanes(model);
    teams = teamTracks(timeline);
    if (!live) teamMessage = undefined;
    slider.max = String(Math.max(0, model.frames.length - 1));
    if (frame < 0 || (live && follow && atEnd)) frame = model.frames.length - 1;
    if (!live) frame = 0;
    render();
  }

  function go(index: number) {
    if (model.frames.length === 0) return;
    frame = Math.max(0, Math.min(model.frames.length - 1, index));
    follow = frame === model.frames.length - 1;
    render();
  }

  function togglePlay() {
    if (playing) {
      clearInterval(playing);
      playing = undefined;
      playButton.textContent = '▶';
      playButton.title = 'Play';
      return;
    }
    if (frame >= model.frames.length - 1) go(0);
    playButton.textContent = '⏸';
    playButton.title = 'Pause';
    playing = setInterval(() => {
      if (frame >= model.frames.length - 1) togglePlay();
      else go(frame + 1);
    }, PLAY_MS);
  }

  function chartFor(definitionKey: string | undefined): Chart | Error | undefined {
    if (!definitionKey) return undefined;
    let chart = charts.get(definitionKey);
    if (!chart) {
      const definition = model.definitions.get(definitionKey);
      if (!definition) return undefined;
      try {
        const box = chartView.element.getBoundingClientRect();
        chart = layoutChartToFit(definition, box.width || 640, box.height || 440);
      } catch (error) {
        chart = error instanceof Error ? error : new Error(String(error));
      }
      charts.set(definitionKey, chart);
    }
    return chart;
  }

  function withSystem(trace: StepTrace | undefined, actor: ActorState): StepTrace | undefined {
    const taskId = (actor.context.task as { taskId?: unknown } | undefined)?.taskId;
    const system = typeof taskId === 'string' ? systems[taskId] : undefined;
    return trace && !trace.system && system ? { ...trace, system } : trace;
  }

  function render() {
    const step = model.frames[frame];
    slider.value = String(Math.max(0, frame));
    for (const control of transport) control.disabled = model.frames.length === 0;
    // Step 0 is the first actor as it started; in a replayed task, step N is its state after N
    // journal entries (the step `troupe replay ID --fork-at N` takes).
    counter.textContent = step ? `step ${frame} / ${model.frames.length - 1}` : 'no steps';
    const start = runStart(model);
    if (!step) {
      panes.replaceChildren(
        h(
          'div',
          { class: 'empty' },
          h('h2', {}, 'Nothing to inspect yet'),
          h(
            'p',
            {},
            'Open a timeline file (written by `troupe run --inspect` or saved from this page), replay a stored task from the list above, or follow this app live.',
          ),
        ),
      );
      lanesSlot.replaceChildren();
      teamSlot.replaceChildren();
      log.replaceChildren();
      current.textContent = '';
      clock.textContent = '';
      return;
    }
    clock.textContent = sinceStart(step.at, start);
    clock.title = absolute(step.at);
    clock.setAttribute('datetime', new Date(step.at).toISOString());
    const selected = pinned && step.actors.has(pinned) ? pinned : step.sessionId;
    const actor = step.actors.get(selected);
    const focused = step.actors.get(step.sessionId)!;
    current.textContent =
      step.kind === 'actor'
        ? `${actorLabel(focused)} started`
        : `${actorLabel(focused)}: ${step.event?.type} → ${formatStateValue(focused.value)}`;
    const chart = chartFor(actor?.definitionKey);
    const chartPane = h(
      'section',
      { class: 'chart-pane', 'aria-label': 'Statechart', 'data-testid': 'chart' },
      h(
        'h2',
        {},
        actor ? `${actorLabel(actor)} · ` : '',
        h(
          'span',
          { class: 'state-value', 'data-testid': 'state-value' },
          actor ? formatStateValue(actor.value) : '',
        ),
      ),
    );
    if (chart instanceof Error)
      chartPane.append(h('p', { class: 'error' }, `Cannot draw this machine: ${chart.message}`));
    else if (chart) chartPane.append(chartView.element);
    else chartPane.append(h('p', { class: 'muted' }, 'No definition recorded for this actor.'));
    const onSelect = (sessionId: string) => {
      pinned = sessionId;
      render();
    };
    const trace = actor ? withSystem(stepTrace(model, step, actor), actor) : undefined;
    const tracePane = traceView(actor, step, trace, selected === step.sessionId ? step.changes : [], start);
    const fork =
      actor &&
      forkForm(actor, taskStep(model.events, actor.sessionId, frame), trace, origin, host.fork, show);
    if (fork) tracePane.prepend(fork);
    panes.replaceChildren(
      actorTree(runTree(model, frame), step.actors, selected, onSelect),
      chartPane,
      tracePane,
    );
    if (chart && !(chart instanceof Error))
      chartView.show(
        chart,
        new Set(activePaths(actor?.value)),
        selected === step.sessionId ? step.taken : [],
      );
    const supervisor = [...step.actors.values()].find((candidate) => candidate.name === 'supervisor');
    const limit = supervisor?.context.maxConcurrent;
    lanesSlot.replaceChildren(
      lanesView(
        lanes,
        { start, end: Math.max(start, model.frames.at(-1)!.at) },
        step.at,
        typeof limit === 'number' ? limit : undefined,
        selected,
        onSelect,
      ),
    );
    log.replaceChildren(eventLog(model.events, frame, everyActor, go, start));
    const spell = (actor?.context.task as { taskId?: string } | undefined)?.taskId;
    const width = Math.max(280, (teamSlot.clientWidth || 900) - 24);
    teamSlot.replaceChildren(
      ...teams.map((track) =>
        teamView(
          track,
          // The last step shows the team's events after it too (its spells' and its own end).
          {
            recordIndex: frame === model.frames.length - 1 ? Number.MAX_SAFE_INTEGER : step.recordIndex,
            time: frame === model.frames.length - 1 ? Math.max(step.at, track.end) : step.at,
            start,
            message: teamMessage,
            spell,
          },
          width,
          teamActions,
        ),
      ),
    );
  }

  const teamActions: TeamActions = {
    selectMessage(id) {
      teamMessage = id;
      render();
    },
    openSpell(taskId) {
      const found = spellStep(model, taskId);
      if (!found) return;
      pinned = found.sessionId;
      if (frame < found.frame) go(found.frame);
      else render();
    },
    goToRecord: (recordIndex) => go(stepAtRecord(model, recordIndex)),
  };
  let resizing: ReturnType<typeof setTimeout> | undefined;
  const onResize = () => {
    if (teams.length === 0) return;
    clearTimeout(resizing);
    resizing = setTimeout(render, 150);
  };
  addEventListener('resize', onResize);

  const show = (text: string, kind: 'ok' | 'error' = 'ok') => {
    status.textContent = text;
    status.className = `source-status ${kind}`;
  };

  fileInput.addEventListener('change', async () => {
    const file = fileInput.files?.[0];
    if (!file) return;
    stopApp?.();
    try {
      const timeline = await openTimelineFile(file);
      pinned = undefined;
      systems = {};
      origin = 'none';
      setTimeline(timeline);
      show(`${file.name}: ${timeline.records.length} records, ${model.frames.length - 1} steps.`);
    } catch (error) {
      show((error as Error).message, 'error');
    }
  });

  let stopApp: (() => void) | undefined;
  /** Follows the app's own runtime: the recorder's timeline, redrawn at most every 100 ms. */
  function followApp() {
    if (!recorder || stopApp) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const draw = () => {
      timer = undefined;
      setTimeline(recorder.timeline(), true);
    };
    const off = recorder.subscribe(() => {
      timer ??= setTimeout(draw, 100);
    });
    stopApp = () => {
      off();
      if (timer) clearTimeout(timer);
      stopApp = undefined;
    };
    stops.push(() => stopApp?.());
    pinned = undefined;
    frame = -1;
    origin = 'app';
    draw();
    show("Live: this app's runtime.");
  }

  async function replay(taskId: string, taskOrigin: TaskOrigin) {
    stopApp?.();
    try {
      show(taskOrigin === 'cli' ? `Replaying ${taskId} in the CLI…` : `Replaying ${taskId}…`);
      const outcome: ReplayShown =
        taskOrigin === 'cli' ? await replayRelayTask(taskId) : await replayStoredTask(store, taskId);
      pinned = undefined;
      systems = outcome.systems ?? {};
      origin = taskOrigin;
      setTimeline(outcome.timeline);
      const forked = outcome.forkedFrom
        ? ` A fork of ${outcome.forkedFrom.taskId} from its step ${outcome.forkedFrom.step}.`
        : '';
      const warned = `${outcome.warnings?.length ? ` (${outcome.warnings.join('; ')})` : ''}${forked}`;
      show(
        outcome.exact
          ? `Task ${taskId} replayed: reproduced exactly (${model.frames.length - 1} steps).${warned}`
          : `Task ${taskId} replayed: not reproduced; first difference ${outcome.difference}.${warned}`,
        outcome.exact ? 'ok' : 'error',
      );
    } catch (error) {
      show((error as Error).message, 'error');
    }
  }

  slider.addEventListener('input', () => go(Number(slider.value)));
  const onKey = (event: KeyboardEvent) => {
    if ((event.target as HTMLElement | null)?.tagName === 'INPUT') return;
    if (event.key === 'ArrowLeft') go(frame - 1);
    if (event.key === 'ArrowRight') go(frame + 1);
  };
  addEventListener('keydown', onKey);

  if (query.source === 'relay') {
    show('Connecting to the relay…');
    stops.push(
      followRelay(
        '/timeline/events',
        (timeline) => setTimeline(timeline, true),
        (state) =>
          show(
            state === 'live'
              ? 'Live: following the relay.'
              : 'Relay disconnected (the troupe process ended?).',
            state === 'live' ? 'ok' : 'error',
          ),
      ),
    );
  } else if (query.source === 'store') {
    if (query.task) void replay(query.task, 'cli');
    else
      void picker.cliStore.then((found) =>
        show(
          found
            ? `${found.count} task${found.count === 1 ? '' : 's'} in the CLI store ${found.name}: pick one to replay it.`
            : 'This page was not served by `troupe replay --inspect`: no CLI store to open.',
          found ? 'ok' : 'error',
        ),
      );
  } else if (query.source === 'app') followApp();
  else if (query.task) void replay(query.task, 'app');
  render();

  return () => {
    if (playing) clearInterval(playing);
    removeEventListener('keydown', onKey);
    removeEventListener('resize', onResize);
    clearTimeout(resizing);
    for (const stop of stops) stop();
    root.remove();
  };
}
