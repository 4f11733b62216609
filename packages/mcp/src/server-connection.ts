import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, McpError, type Tool as McpToolInfo } from '@modelcontextprotocol/sdk/types.js';
import type { Clock } from '@troupe/core';
import { isAbortError, systemClock } from '@troupe/core/internal';
import type { McpServerConfig } from './config/server-config.js';
import { DEFAULT_MAX_MESSAGE_BYTES, formatBytes, messageTooLarge } from './message-limit.js';
import { redact, secretsOf } from './redact.js';
import type { McpCallResult } from './tool-result.js';

export type { McpToolInfo };

/** What a transport factory is told besides the server's name and configuration. */
export interface McpTransportOptions {
  /** Cap on one message from the server, in bytes (see `DEFAULT_MAX_MESSAGE_BYTES`). */
  maxMessageBytes: number;
}

/** Makes the transport for a server: stdio (Node entry) or Streamable HTTP. */
export type McpTransportFactory = (
  name: string,
  config: McpServerConfig,
  options: McpTransportOptions,
) => Transport;

/** Where a server is in its life. */
export type McpServerState = 'idle' | 'starting' | 'ready' | 'failed' | 'closed';

/** Default time one tool call may take, in ms. */
export const DEFAULT_CALL_TIMEOUT_MS = 60_000;
/** Default time connecting and listing tools may take, in ms. */
export const DEFAULT_START_TIMEOUT_MS = 30_000;
/** A server listing more tools than this (or pages without end) is refused as a whole. */
const MAX_TOOLS_PER_SERVER = 1_000;
const FIRST_BACKOFF_MS = 1_000;
const MAX_BACKOFF_MS = 60_000;

/**
 * One MCP server, shared by every task: connects on first use, lists tools, calls them with a
 * timeout and the caller's AbortSignal (the SDK sends `notifications/cancelled` on abort). A
 * fault (failed start, exit, timeout, broken transport) closes the connection and makes the next
 * use restart it, not before a backoff that doubles with each failure in a row (1 s … 60 s).
 */
export class McpServerConnection {
  readonly name: string;
  readonly config: McpServerConfig;
  private readonly createTransport: McpTransportFactory;
  private readonly clock: Clock;
  private readonly maxMessageBytes: number;
  private readonly secrets: string[];
  private client: Client | undefined;
  private transport: Transport | undefined;
  private connecting: Promise<Client> | undefined;
  private failures = 0;
  private retryAt = 0;
  /** Why the last connection closed, as its failed calls report it. */
  private exitReason: string | undefined;
  private closed = false;
  state: McpServerState = 'idle';
  /** The last fault, for status displays (secrets redacted). */
  lastError: string | undefined;
  /** How many times the server was started. */
  starts = 0;

  constructor(
    name: string,
    config: McpServerConfig,
    createTransport: McpTransportFactory,
    clock: Clock = systemClock,
    maxMessageBytes = DEFAULT_MAX_MESSAGE_BYTES,
  ) {
    this.name = name;
    this.config = config;
    this.createTransport = createTransport;
    this.clock = clock;
    this.maxMessageBytes = maxMessageBytes;
    this.secrets = secretsOf(config);
  }

  /**
   * Connects if needed (lazily, once for concurrent callers) and lists the server's tools. A list
   * of more than 1,000 tools (or of pages without end) fails the server, as a fault.
   */
  async listTools(): Promise<McpToolInfo[]> {
    const client = await this.connect();
    const tools: McpToolInfo[] = [];
    let cursor: string | undefined;
    try {
      do {
        const page = await client.listTools(cursor ? { cursor } : undefined, {
          timeout: this.config.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS,
        });
        tools.push(...page.tools);
        cursor = page.nextCursor;
      } while (cursor && tools.length <= MAX_TOOLS_PER_SERVER);
    } catch (error) {
      throw this.fault(client, error, 'listing its tools', undefined);
    }
    if (tools.length > MAX_TOOLS_PER_SERVER) {
      if (this.client === client)
        this.markFailed(
          `it lists more than ${MAX_TOOLS_PER_SERVER.toLocaleString('en-US')} tools, too many to offer a model; none of them is offered`,
        );
      void this.disconnect(client);
      throw new Error(`MCP server "${this.name}" ${this.lastError}.`);
    }
    return tools;
  }

  /**
   * Calls a tool. Throws an Error whose message names the server and the tool for every failure;
   * an abort through `signal` rethrows the abort.
   */
  async callTool(tool: string, input: unknown, signal: AbortSignal): Promise<McpCallResult> {
    const client = await this.connect(tool);
    signal.throwIfAborted();
    try {
      const result = await client.callTool(
        { name: tool, arguments: (input ?? {}) as Record<string, unknown> },
        undefined,
        {
          signal,
          timeout: this.config.timeoutMs ?? DEFAULT_CALL_TIMEOUT_MS,
        },
      );
      this.failures = 0;
      return result as McpCallResult;
    } catch (error) {
      if (signal.aborted || isAbortError(error)) throw error;
      throw this.fault(client, error, `calling "${tool}"`, tool);
    }
  }

  /** Closes the connection (a stdio server's process is ended) and refuses further use. */
  async close(): Promise<void> {
    this.closed = true;
    this.state = 'closed';
    await this.disconnect();
  }

  private connect(tool?: string): Promise<Client> {
    if (this.closed) return Promise.reject(new Error(`MCP server "${this.name}" has been shut down.`));
    if (this.client) return Promise.resolve(this.client);
    const now = this.clock.now();
    if (this.failures > 0 && now < this.retryAt) {
      const seconds = Math.ceil((this.retryAt - now) / 1000);
      return Promise.reject(
        new Error(
          `MCP server "${this.name}" is unavailable${tool ? ` for "${tool}"` : ''} (${this.lastError ?? 'it failed'}); it will be restarted on a use in ${seconds} s or later.`,
        ),
      );
    }
    this.connecting ??= this.start().finally(() => {
      this.connecting = undefined;
    });
    return this.connecting;
  }

  private async start(): Promise<Client> {
    this.state = 'starting';
    this.starts++;
    const client = new Client({ name: 'troupe', version: '0.1.0' }, { capabilities: {} });
    let transport: Transport;
    try {
      transport = this.createTransport(this.name, this.config, { maxMessageBytes: this.maxMessageBytes });
      this.transport = transport;
      this.exitReason = undefined;
      client.onclose = () => {
        // Read now: the calls it fails see the error after the transport is gone.
        this.exitReason = `${this.problem() ?? 'the server exited'}${this.diagnostics()}`;
        if (this.client === client && !this.closed) this.markFailed(this.exitReason);
      };
      await client.connect(transport, { timeout: this.config.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS });
    } catch (error) {
      const reason = isTimeout(error)
        ? `it did not answer within ${this.config.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS} ms`
        : error instanceof McpError && error.code === ErrorCode.ConnectionClosed
          ? 'it exited before answering'
          : describeError(error);
      this.markFailed(`it failed to start: ${reason}${this.diagnostics()}`);
      await this.disconnect(client);
      throw new Error(`MCP server "${this.name}" ${this.lastError}.`);
    }
    if (this.closed) {
      await client.close().catch(() => {});
      throw new Error(`MCP server "${this.name}" has been shut down.`);
    }
    this.client = client;
    this.state = 'ready';
    this.lastError = undefined;
    return client;
  }

  /** Records a failure: state, redacted message, and when the next start may happen. */
  private markFailed(reason: string): void {
    this.failures++;
    this.retryAt = this.clock.now() + Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS * 2 ** (this.failures - 1));
    this.lastError = redact(reason, this.secrets);
    if (!this.closed) this.state = 'failed';
    this.client = undefined;
  }

  /**
   * Turns an error of a request into a message; a fault of the server also restarts it later. An
   * answer over the message limit fails that call only; a tool list over it is a fault.
   */
  private fault(client: Client, error: unknown, doing: string, tool: string | undefined): Error {
    const tooLarge = messageTooLarge(error);
    if (tooLarge && tool !== undefined)
      return new Error(
        `MCP server "${this.name}" sent a ${formatBytes(tooLarge.bytes)} message in answer to "${tool}", over the ${formatBytes(tooLarge.limit)} limit; the result was dropped.`,
      );
    if (tooLarge) {
      if (this.client === client)
        this.markFailed(
          `its tool list was a ${formatBytes(tooLarge.bytes)} message, over the ${formatBytes(tooLarge.limit)} limit; it was dropped`,
        );
      void this.disconnect(client);
      return new Error(`MCP server "${this.name}" failed while ${doing}: ${this.lastError}.`);
    }
    const protocolError =
      error instanceof McpError && !isTimeout(error) && error.code !== ErrorCode.ConnectionClosed;
    if (protocolError) {
      return new Error(
        redact(
          `MCP server "${this.name}" answered an error while ${doing}: ${oneLine(error.message)}`,
          this.secrets,
        ),
      );
    }
    let reason: string;
    if (isTimeout(error))
      reason = `it did not answer within ${this.config.timeoutMs ?? DEFAULT_CALL_TIMEOUT_MS} ms`;
    else if (error instanceof McpError && error.code === ErrorCode.ConnectionClosed)
      reason = this.exitReason ?? `the server exited${this.diagnostics()}`;
    else reason = describeError(error);
    if (this.client === client || this.client === undefined) {
      if (this.client === client) this.markFailed(reason);
      void this.disconnect(client);
    }
    return new Error(
      redact(
        `MCP server "${this.name}" failed while ${doing}: ${reason}. It will be restarted on next use.`,
        this.secrets,
      ),
    );
  }

  /** Why the transport closed itself, when it says (see `ProcessGroupStdioTransport.problem`). */
  private problem(): string | undefined {
    return (this.transport as { problem?: () => string | undefined } | undefined)?.problem?.();
  }

  private diagnostics(): string {
    const tail = (this.transport as { stderrTail?: () => string } | undefined)?.stderrTail?.();
    return tail ? `; its last output: ${tail}` : '';
  }

  private async disconnect(client = this.client): Promise<void> {
    if (this.client === client) this.client = undefined;
    const transport = this.transport;
    this.transport = undefined;
    try {
      if (client) await client.close();
      else await transport?.close();
    } catch {
      // Closing a broken connection may fail; the transport still ends its process.
    }
  }
}

function isTimeout(error: unknown): boolean {
  return error instanceof McpError && error.code === ErrorCode.RequestTimeout;
}

/** An SDK error message on one line, its repeated `MCP error -N: ` prefix once. */
function oneLine(message: string): string {
  return message.replace(/^(MCP error -?\d+: )\1+/, '$1').replace(/\s*\n\s*/g, ' ');
}

function describeError(error: unknown): string {
  if (error instanceof Error)
    return (error as { code?: unknown }).code === 'ENOENT'
      ? `${error.message} (command not found)`
      : error.message;
  return String(error);
}
