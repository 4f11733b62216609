import type { Tool } from './define-tool.js';
import type { ToolSelection } from './tool-registry.js';

/** What a {@link ToolSource} is asked for: the tools one task may get. */
export interface ToolSourceRequest {
  taskId: string;
  agent: string;
  /**
   * The agent's allow- and deny-lists (allow `undefined` or containing `*` = every tool). A source
   * uses it to start only what the task can reach; the runtime applies it to the answer anyway.
   */
  selection: ToolSelection;
}

/** A {@link ToolSource}'s answer: its tools for the task, and problems to report (never fatal). */
export interface ToolSourceAnswer {
  tools: readonly Tool[];
  /** Shown to the host as `runtime.warning` (`TOOL_SOURCE_FAILED`) for the task, e.g. a server that did not start. */
  warnings?: readonly string[];
}

/**
 * Tools that exist only once asked for, such as an MCP server's (`@troupe/mcp`'s
 * `hub.toolSource()`), which start the server. The runtime asks each source when a task starts,
 * before its first model call (again for a restored task, and for each session turn), and adds
 * the tools the agent's selection keeps to that task's registry. A source that rejects gives that
 * task no tools and a warning; the task goes on.
 */
export interface ToolSource {
  /** Names the source in warnings. */
  readonly name: string;
  /** The source's tools for one task (starting what they need, e.g. a server), with warnings. */
  tools(request: ToolSourceRequest): Promise<ToolSourceAnswer>;
}
