import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { McpStdioServerConfig } from '../config/server-config.js';
import {
  DEFAULT_MAX_MESSAGE_BYTES,
  formatBytes,
  type OversizedMessage,
  tooLargeAnswer,
} from '../message-limit.js';
import { MessageReader } from './message-reader.js';
import {
  descendantsOf,
  processesMarked,
  SERVER_MARKER_VARIABLE,
  signalAll,
  terminate,
} from './process-tree.js';
import { serverEnvironment } from './safe-environment.js';
import { startWatchdog } from './watchdog.js';

const STDERR_TAIL = 600;
const GRACE_MS = 500;
const TERM_MS = 1_500;
/** Servers started and not yet stopped with all they started: leader pid → marker, watchdog. */
const servers = new Map<number, { marker: string; watchdog: ChildProcess | undefined }>();
let exitHookInstalled = false;

/** Kills every server, and what it started, still alive when the host process exits (no orphans). */
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const [pid, { watchdog }] of servers) {
      signalAll(descendantsOf(pid), 'SIGKILL');
      killGroup(pid, 'SIGKILL');
      watchdog?.kill('SIGKILL');
    }
    signalAll(processesMarked(new Set([...servers.values()].map((server) => server.marker))), 'SIGKILL');
  });
}

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(process.platform === 'win32' ? pid : -pid, signal);
  } catch {
    // Already gone.
  }
}

/** Options of {@link ProcessGroupStdioTransport}. */
export interface StdioTransportOptions {
  /** The server's configured name, for messages. Default `"stdio"`. */
  name?: string;
  /** Cap on one message from the server, in bytes. Default 10 MB. */
  maxMessageBytes?: number;
}

/**
 * MCP over a child process's stdin/stdout, like the SDK's `StdioClientTransport`, but the server
 * runs in its own process group with a safe environment (see `serverEnvironment`), and closing
 * it (or the server exiting) stops the whole group and what the server started (SIGTERM, then
 * SIGKILL after 1.5 s), so nothing survives it. On Linux that includes processes that left the
 * group: the server's descendants read from /proc before it is stopped, and every process whose
 * environment still carries the server's `TROUPE_MCP_SERVER` marker (a double-forked daemon).
 * A process that leaves the group, its parent and that marker all at once is out of reach. A
 * watchdog (see `startWatchdog`) does the same if the host dies without running any code. The
 * last lines of the server's stderr are kept for error messages.
 *
 * A message over `maxMessageBytes` is never buffered whole and never throws: an answer to one of
 * troupe's requests becomes an error answer to that request (see `tooLargeAnswer`), a request or
 * notification of the server is dropped (reported through `onerror`), and the next messages are
 * read as usual. An answer whose request cannot be told while several are pending closes the
 * transport (the connection restarts on next use), saying why in {@link problem}.
 */
export class ProcessGroupStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private readonly config: McpStdioServerConfig;
  private readonly name: string;
  private readonly maxMessageBytes: number;
  private readonly reader: MessageReader;
  /** Ids of troupe's requests not answered yet, as strings. */
  private readonly pending = new Set<string>();
  private child: ChildProcess | undefined;
  private exited: Promise<void> | undefined;
  private stderr = '';
  private closedBecause: string | undefined;
  /** The value of `TROUPE_MCP_SERVER` in this server's environment, and so in what it starts. */
  private readonly marker = randomUUID();
  /** What the server started, found while it ran (see `close`). */
  private readonly tracked = new Set<number>();
  /** Stopping what the server left, once it exited. */
  private stopped: Promise<void> | undefined;

  constructor(config: McpStdioServerConfig, options: StdioTransportOptions = {}) {
    this.config = config;
    this.name = options.name ?? 'stdio';
    this.maxMessageBytes = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
    this.reader = new MessageReader(this.maxMessageBytes);
  }

  /** Why troupe closed the transport itself, if it did (an answer over the limit it could not place). */
  problem(): string | undefined {
    return this.closedBecause;
  }

  /** The server's process id (its process group id too), once started. */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** The end of what the server wrote to stderr, on one line. */
  stderrTail(): string {
    return this.stderr
      .trim()
      .replace(/\s*\n\s*/g, ' | ')
      .slice(-STDERR_TAIL);
  }

  start(): Promise<void> {
    if (this.child) throw new Error('ProcessGroupStdioTransport already started.');
    installExitHook();
    return new Promise((resolve, reject) => {
      const child = spawn(this.config.command, this.config.args, {
        env: { ...serverEnvironment(this.config.env), [SERVER_MARKER_VARIABLE]: this.marker },
        stdio: ['pipe', 'pipe', 'pipe'],
        detached: process.platform !== 'win32',
        windowsHide: true,
        ...(this.config.cwd ? { cwd: this.config.cwd } : {}),
      });
      this.child = child;
      this.exited = new Promise((done) =>
        child.once('exit', () => {
          // The leader is gone; what it left in its group or started goes too.
          if (child.pid !== undefined) this.stopped = this.stopLeftovers(child);
          done();
        }),
      );
      child.once('error', (error) => {
        reject(error);
        this.onerror?.(error);
      });
      child.once('spawn', () => {
        if (child.pid)
          servers.set(child.pid, { marker: this.marker, watchdog: startWatchdog(child.pid, this.marker) });
        resolve();
      });
      child.once('close', () => {
        this.child = undefined;
        this.onclose?.();
      });
      child.stdin?.on('error', (error) => this.onerror?.(error));
      child.stdout?.on('data', (chunk: Buffer) => {
        for (const result of this.reader.push(chunk)) {
          if (result.type === 'message') this.deliver(result.message);
          else if (result.type === 'invalid') this.onerror?.(result.error);
          else this.refuse(result.message);
        }
      });
      child.stderr?.on('data', (chunk: Buffer) => {
        this.stderr = (this.stderr + chunk.toString('utf8')).slice(-STDERR_TAIL * 4);
      });
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    if ('method' in message && 'id' in message) this.pending.add(String(message.id));
    else if ('method' in message && message.method === 'notifications/cancelled')
      this.pending.delete(String((message.params as { requestId?: unknown } | undefined)?.requestId));
    return new Promise((resolve, reject) => {
      const stdin = this.child?.stdin;
      if (!stdin || stdin.destroyed) {
        reject(new Error('Not connected: the server process is not running.'));
        return;
      }
      if (stdin.write(serializeMessage(message))) resolve();
      else stdin.once('drain', resolve);
    });
  }

  /**
   * Ends the server: closes its stdin, then SIGTERM and SIGKILL to its process group and to what
   * it started (see the class's documentation); resolves once they are gone.
   */
  async close(): Promise<void> {
    const child = this.child;
    const exited = this.exited;
    this.reader.clear();
    this.pending.clear();
    if (!child || !exited || child.pid === undefined) {
      await this.stopped;
      return;
    }
    const pid = child.pid;
    // While the server runs, what it started is its descendant, whichever group or session it is in.
    for (const descendant of descendantsOf(pid)) this.tracked.add(descendant);
    const within = (ms: number) =>
      Promise.race([
        exited.then(() => true),
        new Promise<boolean>((done) => setTimeout(() => done(false), ms).unref()),
      ]);
    try {
      child.stdin?.end();
    } catch {
      // The pipe may already be broken.
    }
    if (!(await within(GRACE_MS))) {
      killGroup(pid, 'SIGTERM');
      if (!(await within(TERM_MS))) killGroup(pid, 'SIGKILL');
    }
    await within(TERM_MS);
    await this.stopped;
  }

  /** After the server exited: stops its group, its descendants and every marked process. */
  private async stopLeftovers(child: ChildProcess): Promise<void> {
    const pid = child.pid!;
    const current = () => [...descendantsOf(pid), ...processesMarked(new Set([this.marker]))];
    const targets = new Set([...this.tracked, ...current()]);
    targets.delete(pid);
    killGroup(pid, 'SIGTERM');
    await terminate([...targets], TERM_MS, current);
    killGroup(pid, 'SIGKILL');
    servers.get(pid)?.watchdog?.kill('SIGKILL');
    servers.delete(pid);
    this.tracked.clear();
    // A process that escaped may still hold the pipes; once the server's last output has had time
    // to arrive, the transport closes regardless.
    if (child.stdout?.closed === false || child.stderr?.closed === false) {
      await new Promise<void>((done) => {
        const timer = setTimeout(done, TERM_MS);
        timer.unref();
        child.once('close', () => {
          clearTimeout(timer);
          done();
        });
      });
      child.stdout?.destroy();
      child.stderr?.destroy();
    }
  }

  private deliver(message: JSONRPCMessage): void {
    if (!('method' in message) && 'id' in message) this.pending.delete(String(message.id));
    this.onmessage?.(message);
  }

  /** Handles a message over the limit (see the class's documentation). */
  private refuse(message: OversizedMessage): void {
    const size = `a ${formatBytes(message.bytes)} message, over the ${formatBytes(this.maxMessageBytes)} limit`;
    if (message.isFromServer()) {
      this.onerror?.(new Error(`MCP server "${this.name}" sent ${size}; it was dropped.`));
      return;
    }
    const id = message.id();
    const only = this.pending.size === 1 ? [...this.pending][0] : undefined;
    const pending = id !== undefined && this.pending.has(String(id)) ? String(id) : only;
    if (pending === undefined) {
      this.closedBecause = `it sent ${size}, an answer troupe could not match to a request`;
      this.onerror?.(
        new Error(`MCP server "${this.name}" ${this.closedBecause}; the connection is restarted.`),
      );
      void this.close();
      return;
    }
    // The SDK matches answers by numeric id; troupe's own requests carry numbers.
    const answerId = /^-?\d+$/.test(pending) ? Number(pending) : pending;
    this.deliver(tooLargeAnswer(answerId, message.bytes, this.maxMessageBytes));
  }
}
