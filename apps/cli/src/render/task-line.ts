import { formatDuration, formatTokens, MCP_TOOL_PREFIX } from '@troupe/core';
import type { Colors } from './colors.js';
import { firstLine } from './text.js';

/** What the CLI shows about one task: built from runtime events, or from the store. */
export interface TaskView {
  taskId: string;
  agent: string;
  description: string;
  status: 'queued' | 'running' | 'awaitingApproval' | 'completed' | 'failed' | 'cancelled';
  toolCalls: number;
  tokens: number;
  /** Time since the task started, as of `updatedAt`. */
  elapsedMs: number;
  /** When `elapsedMs` was measured (ms since epoch); a running task's time is counted on from it. */
  updatedAt: number;
  background: boolean;
  /** Queue position while queued (1 = next). */
  position?: number;
  /** The tool running now, or the last one, as `glob **\/*.ts`. */
  lastTool?: string;
  /** The tool waiting for approval. */
  approvalTool?: string;
  /** The latest streamed text (for the expanded view). */
  streamTail?: string;
  terminateReason?: string;
  error?: string;
  /** The agent's display colour. */
  color?: string;
}

/** `[explore] Find auth code`: the agent tag and description, coloured. */
export function taskLabel(view: Pick<TaskView, 'agent' | 'description' | 'color'>, colors: Colors): string {
  return `${colors.named(view.color)(`[${view.agent}]`)} ${view.description}`;
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

/** Elapsed time of a view at `now` (running tasks keep counting). */
function elapsedAt(view: TaskView, now: number): number {
  return view.status === 'running' ? view.elapsedMs + Math.max(0, now - view.updatedAt) : view.elapsedMs;
}

/** The live line of an unfinished task: `[explore] Find auth code ... 5 tools, 3.2s`. */
export function liveLine(view: TaskView, now: number, colors: Colors): string {
  const label = taskLabel(view, colors);
  if (view.status === 'queued') {
    return `${label} ${colors.dim(`... queued${view.position ? ` (#${view.position})` : ''}`)}`;
  }
  const stats = `${plural(view.toolCalls, 'tool')}, ${formatDuration(elapsedAt(view, now))}`;
  if (view.status === 'awaitingApproval') {
    return `${label} ... ${stats} ${colors.yellow(`· waiting for approval${view.approvalTool ? `: ${view.approvalTool}` : ''}`)}`;
  }
  return `${label} ... ${stats}${view.lastTool ? colors.dim(` · ${view.lastTool}`) : ''}`;
}

/** The line of a finished task: `[explore] Find auth code - done (8 tools, 5.1s, 12k tokens)`. */
export function finalLine(view: TaskView, colors: Colors): string {
  const stats = `(${plural(view.toolCalls, 'tool')}, ${formatDuration(view.elapsedMs)}, ${formatTokens(view.tokens)} tokens)`;
  const label = taskLabel(view, colors);
  if (view.status === 'completed') return `${label} - ${colors.green('done')} ${stats}`;
  if (view.status === 'cancelled') return `${label} - ${colors.yellow('cancelled')} ${stats}`;
  const reason = view.terminateReason ?? 'ERROR';
  const why = reason === 'ERROR' && view.error ? `: ${firstLine(view.error)}` : '';
  return `${label} - ${colors.red(`failed, ${reason}${why}`)} ${stats}`;
}

/**
 * A short form of a tool call for progress lines: `grep TODO|FIXME`, `read src/index.ts`. An MCP
 * tool (`mcp__server__tool`) without one of the usual fields shows its first text argument.
 */
export function toolSummary(tool: string, input: unknown): string {
  if (input && typeof input === 'object') {
    const record = input as Record<string, unknown>;
    const keys = ['command', 'file_path', 'pattern', 'path', 'description', 'task', 'task_id'];
    const known = keys.map((key) => record[key]).find((value) => typeof value === 'string' && value.trim());
    const value =
      known ??
      (tool.startsWith(MCP_TOOL_PREFIX)
        ? Object.values(record).find((field) => typeof field === 'string' && field.trim())
        : undefined);
    if (typeof value === 'string') {
      const text = firstLine(value);
      return `${tool} ${text.length > 60 ? `${text.slice(0, 59)}…` : text}`;
    }
  }
  return tool;
}
