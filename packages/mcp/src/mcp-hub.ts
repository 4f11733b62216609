import {
  type Clock,
  defineTool,
  mcpServerOf,
  type Tool,
  type ToolAccess,
  type ToolSelection,
  type ToolSource,
  type ToolSourceAnswer,
  ValidationError,
  withPatternEngine,
} from '@troupe/core';
import { sanitiseMcpName, systemClock } from '@troupe/core/internal';
import * as v from 'valibot';
import { accessOf } from './access.js';
import type { McpServerEntry } from './config/server-config.js';
import { createMcpTool, type McpTool } from './mcp-tool.js';
import { McpServerConnection, type McpServerState, type McpTransportFactory } from './server-connection.js';
import { serversForSelection } from './servers-for-selection.js';

/** Options of {@link createMcpHub}. */
export interface McpHubOptions {
  /** Servers to offer (see `parseMcpConfig`, or `loadMcpConfig` in `@troupe/mcp/node`). */
  servers?: readonly McpServerEntry[];
  /** Makes transports. Default: Streamable HTTP only; `@troupe/mcp/node` adds stdio. */
  createTransport: McpTransportFactory;
  /** Cap on one tool result, in characters. Default 30,000. */
  maxResultChars?: number;
  /**
   * Cap on one message from a server, in bytes. Default 10 MB (`DEFAULT_MAX_MESSAGE_BYTES`). An
   * answer over it fails that call with an error naming server, tool and size; the connection
   * stays up. A tool list over it fails the server.
   */
  maxMessageBytes?: number;
  clock?: Clock;
}

/** A server as `troupe mcp list` and `/mcp` show it. Never carries `env` or `headers`. */
export interface McpServerStatus {
  name: string;
  type: 'stdio' | 'http';
  source: string;
  state: McpServerState;
  error?: string;
  /** Tools found at the last listing (empty until the server has started once). */
  tools: {
    name: string;
    mcpName: string;
    access: ToolAccess;
    /**
     * The server annotates the tool `readOnlyHint: true`. Shown for information only: the access
     * class comes from the user's configuration, never from the server's word.
     */
    serverSaysReadOnly?: true;
  }[];
}

/** What {@link McpHub.tools} should discover. */
export interface McpToolsRequest {
  /** Servers to start and list (default: every server). */
  servers?: readonly string[];
  /**
   * Exact tool names (`mcp__server__tool`) agents ask for. If their server cannot start now, each
   * still exists, as a tool that retries the server on use and otherwise answers a clear error.
   */
  expect?: readonly string[];
}

/**
 * The MCP servers of a host, shared by all its tasks. No server starts until the host asks for
 * its tools; each failure is contained in its server (see {@link McpServerConnection}).
 */
export class McpHub {
  private readonly connections = new Map<string, McpServerConnection>();
  private readonly entries = new Map<string, McpServerEntry>();
  private readonly listed = new Map<string, McpTool[]>();
  /** Tools (by troupe name) their server annotates `readOnlyHint: true`: shown, never trusted. */
  private readonly readOnlyHinted = new Set<string>();
  private readonly discovering = new Map<string, Promise<McpTool[] | undefined>>();
  private readonly owners = new Map<string, string>();
  private readonly found: string[] = [];
  private readonly options: McpHubOptions;

  /** Throws `ValidationError` when `maxMessageBytes` is not an integer of at least 1,024. */
  constructor(options: McpHubOptions) {
    const limit = options.maxMessageBytes;
    if (limit !== undefined && !(Number.isInteger(limit) && limit >= 1_024))
      throw new ValidationError(
        `createMcpHub: maxMessageBytes must be an integer >= 1024 (bytes); got ${String(limit)}.`,
        [`maxMessageBytes: expected an integer >= 1024, got ${String(limit)}`],
      );
    this.options = options;
    for (const entry of options.servers ?? []) this.add(entry);
  }

  /** Adds a server. Returns a problem message (and keeps the first) if the name is taken. */
  add(entry: McpServerEntry): string | undefined {
    const existing = this.entries.get(entry.name);
    if (existing) {
      const problem = `MCP server "${entry.name}" from ${entry.source} is ignored: ${existing.source} already defines it.`;
      this.found.push(problem);
      return problem;
    }
    this.entries.set(entry.name, entry);
    this.connections.set(
      entry.name,
      new McpServerConnection(
        entry.name,
        entry.config,
        this.options.createTransport,
        this.options.clock ?? systemClock,
        this.options.maxMessageBytes,
      ),
    );
    return undefined;
  }

  /** Names of the configured servers. */
  names(): string[] {
    return [...this.entries.keys()];
  }

  /** The configured server whose sanitised name is `sanitised` (as in `mcp__<server>__...`). */
  serverNamed(sanitised: string): string | undefined {
    if (this.entries.has(sanitised)) return sanitised;
    const lower = sanitised.toLowerCase();
    return this.names().find((name) => sanitiseMcpName(name).toLowerCase() === lower);
  }

  /**
   * Starts the requested servers (in parallel, each at most once at a time), lists their tools
   * and returns them as troupe tools. A server that fails to start gives no tools (see `status()`
   * for why) except the `expect`ed names, which stay available and retry it on use.
   */
  async tools(request: McpToolsRequest = {}): Promise<Tool[]> {
    const wanted = (request.servers ?? this.names()).filter((name) => this.connections.has(name));
    await Promise.all(wanted.map((name) => this.discover(name)));
    const tools: Tool[] = [];
    for (const name of wanted) tools.push(...(this.listed.get(name) ?? []));
    const have = new Set(tools.map((tool) => tool.name));
    for (const expected of request.expect ?? []) {
      const server = this.serverNamed(mcpServerOf(expected) ?? '');
      if (!server || !wanted.includes(server) || this.listed.has(server) || have.has(expected)) continue;
      if (expected.endsWith('*') || expected.slice(5).indexOf('__') === -1) continue;
      tools.push(this.placeholder(server, expected));
      have.add(expected);
    }
    return tools;
  }

  /**
   * The hub as a runtime tool source (`createRuntime({ toolSources: [hub.toolSource()] })`): when a
   * task starts, the servers its agent's tool selection can reach start (once, shared by every
   * task after), and their tools join that task's registry. A task whose selection reaches no
   * server starts none. A server that cannot start is a warning for the task; tools its agent names
   * exactly stay, and answer an error naming the server (retrying it) when called.
   */
  toolSource(): ToolSource {
    return { name: 'mcp', tools: (request) => this.toolsForSelection(request.selection) };
  }

  /** The tools of the servers `selection` reaches, starting them (see {@link McpHub.toolSource}). */
  async toolsForSelection(selection: ToolSelection): Promise<ToolSourceAnswer> {
    const { servers, expect } = serversForSelection(this.names(), selection);
    if (servers.length === 0) return { tools: [] };
    const tools = await this.tools({ servers, expect });
    const warnings = servers
      .filter((name) => !this.listed.has(name))
      .map(
        (name) =>
          `MCP server "${name}" is unavailable, so its tools are missing: ${this.connections.get(name)!.lastError ?? 'it failed to start'}.`,
      );
    return { tools, warnings };
  }

  /** Every server's state and tools. */
  status(): McpServerStatus[] {
    return this.names().map((name) => {
      const entry = this.entries.get(name)!;
      const connection = this.connections.get(name)!;
      const status: McpServerStatus = {
        name,
        type: entry.config.type,
        source: entry.source,
        state: connection.state,
        tools: (this.listed.get(name) ?? []).map((tool) => ({
          name: tool.name,
          mcpName: tool.mcpName,
          access: tool.access,
          ...(this.readOnlyHinted.has(tool.name) ? { serverSaysReadOnly: true as const } : {}),
        })),
      };
      if (connection.lastError) status.error = connection.lastError;
      return status;
    });
  }

  /** Problems found so far: duplicate servers, tool-name collisions, unusable tool schemas. */
  problems(): string[] {
    return [...this.found];
  }

  /** Closes every server; stdio servers' processes are ended. Safe to call twice. */
  async close(): Promise<void> {
    await Promise.all([...this.connections.values()].map((connection) => connection.close()));
  }

  /** Lists a server's tools once (concurrent callers share the listing). */
  private discover(name: string): Promise<McpTool[] | undefined> {
    const cached = this.listed.get(name);
    if (cached) return Promise.resolve(cached);
    let pending = this.discovering.get(name);
    if (!pending) {
      pending = this.list(name).finally(() => this.discovering.delete(name));
      this.discovering.set(name, pending);
    }
    return pending;
  }

  private async list(name: string): Promise<McpTool[] | undefined> {
    const connection = this.connections.get(name)!;
    let infos: Awaited<ReturnType<McpServerConnection['listTools']>>;
    try {
      infos = await connection.listTools();
    } catch {
      return undefined; // the connection keeps the reason for status()
    }
    if (this.listed.has(name)) return this.listed.get(name);
    const tools: McpTool[] = [];
    const config = connection.config;
    for (const info of infos) {
      let tool: McpTool;
      try {
        // In a browser, a schema with a pattern loads the pattern engine first (on demand).
        tool = await withPatternEngine(() =>
          createMcpTool(
            connection,
            info,
            accessOf(info.name, info.annotations, config),
            this.options.maxResultChars,
          ),
        );
        if (info.annotations?.readOnlyHint === true) this.readOnlyHinted.add(tool.name);
      } catch (error) {
        this.found.push(
          `MCP tool "${info.name}" of server "${name}" is not offered: ${(error as Error).message}`,
        );
        continue;
      }
      const owner = this.owners.get(tool.name);
      if (owner && owner !== `${name}/${info.name}`) {
        this.found.push(
          `MCP tools "${owner}" and "${name}/${info.name}" both become "${tool.name}"; only the first is offered. Rename a server in the configuration.`,
        );
        continue;
      }
      this.owners.set(tool.name, `${name}/${info.name}`);
      tools.push(tool);
    }
    this.listed.set(name, tools);
    return tools;
  }

  /** A stand-in for a named tool whose server could not start: retries the server on use. */
  private placeholder(server: string, name: string): Tool {
    const connection = this.connections.get(server)!;
    return defineTool({
      name,
      description: `Tool of MCP server "${server}" (the server could not be started yet: ${connection.lastError ?? 'unknown reason'}).`,
      access: 'execute',
      input: v.record(v.string(), v.unknown()),
      inputJsonSchema: { type: 'object', additionalProperties: true },
      execute: async (input, context) => {
        const tools = await this.discover(server);
        if (!tools)
          throw new Error(
            `MCP server "${server}" is unavailable, so "${name}" cannot run: ${connection.lastError ?? 'it failed to start'}.`,
          );
        const tool = tools.find((candidate) => candidate.name === name);
        if (!tool) throw new Error(`MCP server "${server}" has no tool that maps to "${name}".`);
        const parsed = v.safeParse(tool.input, input);
        if (!parsed.success)
          throw new Error(
            `invalid input for "${name}": ${parsed.issues.map((issue) => issue.message).join('; ')}`,
          );
        return tool.execute(parsed.output, context);
      },
    });
  }
}

/** Creates an {@link McpHub}. */
export function createMcpHub(options: McpHubOptions): McpHub {
  return new McpHub(options);
}
