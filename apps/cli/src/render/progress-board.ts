import type { RuntimeEvents, TaskClient, TaskEventBase } from '@troupe/core';
import type { Colors } from './colors.js';
import { finalLine, liveLine, type TaskView, taskLabel, toolSummary } from './task-line.js';
import { truncate } from './text.js';
import { workspaceLines } from './workspace-lines.js';

/** Options of {@link ProgressBoard}. */
export interface ProgressBoardOptions {
  colors: Colors;
  /** Prints a finished line (and, in plain mode, every step). */
  log: (line: string) => void;
  /** Asks for a redraw of the live lines (TTY). */
  refresh?: () => void;
  /** `live`: a TTY region shows unfinished tasks; `plain`: one line per step, nothing redrawn. */
  mode: 'live' | 'plain';
  now?: () => number;
  /** The display colour of an agent (its definition's `color`). */
  colorOf?: (agent: string) => string | undefined;
  /** Only tasks of this session are shown (default: all). */
  sessionKey?: string;
  /** True while the main agent is working (adds a `[main]` line to the live region). */
  mainBusy?: () => boolean;
}

type Finished = RuntimeEvents['task.completed'];

/**
 * Turns runtime events into progress lines: `[explore] Find auth code ... 5 tools, 3.2s` while a
 * sub-agent runs, `[explore] Find auth code - done (8 tools, 5.1s, 12k tokens)` when it ends. In
 * live mode the unfinished tasks are the live region ({@link liveLines}); in plain mode each step
 * (queued, started, tool call, end) is one line. Main-agent (depth 0) events feed the `[main]` line.
 */
export class ProgressBoard {
  /** Show the latest streamed text under each running task (Ctrl-O in a session). */
  expanded = false;
  /** Tasks left out of the live lines (a team's spells, which its member lines show). */
  hidden: (taskId: string) => boolean = () => false;
  private readonly views = new Map<string, TaskView>();
  private main:
    | { taskId: string; toolCalls: number; startedAt: number; lastTool?: string; tail?: string }
    | undefined;
  private readonly now: () => number;

  constructor(private readonly options: ProgressBoardOptions) {
    this.now = options.now ?? Date.now;
  }

  /** Subscribes to a task client's events (a runtime's, a cluster's); returns the function that unsubscribes. */
  attach(runtime: Pick<TaskClient, 'on'>): () => void {
    const offs = [
      runtime.on('task.queued', (event) => this.onQueued(event)),
      runtime.on('task.started', (event) => this.onStarted(event)),
      runtime.on('task.progress', (event) => this.onProgress(event)),
      runtime.on('tool.started', (event) => this.onToolStarted(event)),
      runtime.on('tool.finished', (event) => this.onToolFinished(event)),
      runtime.on('approval.requested', (event) => this.onApproval(event.taskId, event.tool)),
      runtime.on('approval.resolved', (event) => this.onApprovalResolved(event.taskId)),
      runtime.on('task.completed', (event) => this.onFinished(event)),
      runtime.on('task.failed', (event) => this.onFinished(event)),
      runtime.on('task.cancelled', (event) => this.onFinished(event)),
    ];
    return () => {
      for (const off of offs) off();
    };
  }

  /** Unfinished tasks, in the order they were queued. */
  active(): TaskView[] {
    return [...this.views.values()];
  }

  /** The live region's lines: the main agent (when busy), then each unfinished task. */
  liveLines(width = 200): string[] {
    const now = this.now();
    const { colors } = this.options;
    const lines: string[] = [];
    if (this.options.mainBusy?.()) {
      const main = this.main;
      const tools = main ? `${main.toolCalls} tool${main.toolCalls === 1 ? '' : 's'}, ` : '';
      const since = main ? ((now - main.startedAt) / 1000).toFixed(1) : '';
      lines.push(
        `${colors.magenta('[main]')} ${colors.dim('thinking')}${main ? ` ... ${tools}${since}s` : ' ...'}${main?.lastTool ? colors.dim(` · ${main.lastTool}`) : ''}`,
      );
      if (this.expanded && main?.tail) lines.push(colors.dim(`  │ ${truncate(main.tail, width - 4)}`));
    }
    for (const view of this.views.values()) {
      if (this.hidden(view.taskId)) continue;
      lines.push(liveLine(view, now, colors));
      if (this.expanded && view.streamTail && view.status === 'running') {
        lines.push(colors.dim(`  │ ${truncate(view.streamTail, width - 4)}`));
      }
    }
    return lines;
  }

  /** Forgets the main agent's current run (call when its reply arrives). */
  mainEnded(): void {
    this.main = undefined;
    this.options.refresh?.();
  }

  private wanted(event: TaskEventBase): boolean {
    return this.options.sessionKey === undefined || event.sessionKey === this.options.sessionKey;
  }

  private view(event: TaskEventBase, status: TaskView['status']): TaskView {
    let view = this.views.get(event.taskId);
    if (!view) {
      view = {
        taskId: event.taskId,
        agent: event.agent,
        description: event.description,
        status,
        toolCalls: event.toolCalls,
        tokens: event.tokens,
        elapsedMs: event.elapsedMs,
        updatedAt: event.at,
        background: false,
      };
      const color = this.options.colorOf?.(event.agent);
      if (color) view.color = color;
      this.views.set(event.taskId, view);
    }
    view.toolCalls = event.toolCalls;
    view.tokens = event.tokens;
    view.elapsedMs = event.elapsedMs;
    view.updatedAt = this.now();
    return view;
  }

  private plain(view: TaskView, text: string): void {
    if (this.options.mode === 'plain')
      this.options.log(`${taskLabel(view, this.options.colors)} ... ${text}`);
  }

  private changed(): void {
    this.options.refresh?.();
  }

  private onQueued(event: RuntimeEvents['task.queued']): void {
    if (event.depth === 0 || !this.wanted(event)) return;
    const view = this.view(event, 'queued');
    if (event.position > 0) {
      view.position = event.position;
      this.plain(view, `queued (#${event.position}, waiting for a free slot)`);
    }
    this.changed();
  }

  private onStarted(event: RuntimeEvents['task.started']): void {
    if (event.depth === 0 || !this.wanted(event)) return;
    const view = this.view(event, 'running');
    view.status = 'running';
    delete view.position;
    // Everyone behind it moves up one place.
    for (const other of this.views.values()) if (other.position && other.position > 1) other.position--;
    this.plain(view, 'started');
    this.changed();
  }

  private onProgress(event: RuntimeEvents['task.progress']): void {
    if (!this.wanted(event)) return;
    if (event.depth === 0) {
      const main = this.mainFor(event);
      if (event.kind !== 'turn') main.tail = lastLine((main.tail ?? '') + event.text);
      return;
    }
    const view = this.views.get(event.taskId);
    if (!view) return;
    this.view(event, view.status);
    if (event.kind !== 'turn') view.streamTail = lastLine((view.streamTail ?? '') + event.text);
  }

  private onToolStarted(event: RuntimeEvents['tool.started']): void {
    if (!this.wanted(event)) return;
    const summary = toolSummary(event.tool, event.input);
    if (event.depth === 0) {
      const main = this.mainFor(event);
      main.toolCalls++;
      main.lastTool = summary;
      this.changed();
      return;
    }
    const view = this.views.get(event.taskId);
    if (!view) return;
    this.view(event, view.status);
    view.lastTool = summary;
    this.plain(view, summary);
    this.changed();
  }

  private onToolFinished(event: RuntimeEvents['tool.finished']): void {
    if (event.depth === 0 || !this.wanted(event)) return;
    const view = this.views.get(event.taskId);
    if (!view) return;
    this.view(event, view.status);
    this.changed();
  }

  private onApproval(taskId: string, tool: string): void {
    const view = this.views.get(taskId);
    if (!view) return;
    view.status = 'awaitingApproval';
    view.approvalTool = tool;
    view.elapsedMs += Math.max(0, this.now() - view.updatedAt);
    view.updatedAt = this.now();
    this.changed();
  }

  private onApprovalResolved(taskId: string): void {
    const view = this.views.get(taskId);
    if (view?.status !== 'awaitingApproval') return;
    view.status = 'running';
    delete view.approvalTool;
    view.updatedAt = this.now();
    this.changed();
  }

  private onFinished(event: Finished): void {
    if (event.depth === 0 || !this.wanted(event)) return;
    const view = this.view(event, event.result.status);
    this.views.delete(event.taskId);
    view.status = event.result.status;
    view.toolCalls = event.result.toolCalls;
    view.tokens = event.result.usage.total;
    view.elapsedMs = event.result.durationMs;
    view.terminateReason = event.result.terminateReason;
    if (event.result.error) view.error = event.result.error.message;
    this.options.log(finalLine(view, this.options.colors));
    if (event.result.workspace)
      for (const line of workspaceLines(event.result.workspace, this.options.colors))
        this.options.log(`  ${line}`);
    this.changed();
  }

  private mainFor(event: TaskEventBase) {
    if (!this.main || this.main.taskId !== event.taskId) {
      this.main = { taskId: event.taskId, toolCalls: 0, startedAt: this.now() };
    }
    return this.main;
  }
}

function lastLine(text: string): string {
  const lines = text.split('\n').filter((line) => line.trim() !== '');
  return (lines[lines.length - 1] ?? '').slice(-400);
}
