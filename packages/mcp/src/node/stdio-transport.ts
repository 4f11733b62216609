import { type ChildProcess, spawn } from 'node:child_process';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { McpStdioServerConfig } from '../config/server-config.js';
import { serverEnvironment } from './safe-environment.js';

const STDERR_TAIL = 600;
const GRACE_MS = 500;
const TERM_MS = 1_500;
const groups = new Set<number>();
let exitHookInstalled = false;

/** Kills every server process group still alive when the host process exits (no orphans). */
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const pid of groups) killGroup(pid, 'SIGKILL');
  });
}

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(process.platform === 'win32' ? pid : -pid, signal);
  } catch {
    // Already gone.
  }
}

/**
 * MCP over a child process's stdin/stdout, like the SDK's `StdioClientTransport`, but the server
 * runs in its own process group with a safe environment (see `serverEnvironment`), and closing
 * it (or the server exiting) ends the whole group, so nothing the server started survives. The
 * last lines of its stderr are kept for error messages.
 */
export class ProcessGroupStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private readonly config: McpStdioServerConfig;
  private readonly buffer = new ReadBuffer();
  private child: ChildProcess | undefined;
  private exited: Promise<void> | undefined;
  private stderr = '';

  constructor(config: McpStdioServerConfig) {
    this.config = config;
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
        env: serverEnvironment(this.config.env),
        stdio: ['pipe', 'pipe', 'pipe'],
        detached: process.platform !== 'win32',
        windowsHide: true,
        ...(this.config.cwd ? { cwd: this.config.cwd } : {}),
      });
      this.child = child;
      this.exited = new Promise((done) => child.once('close', () => done()));
      child.once('error', (error) => {
        reject(error);
        this.onerror?.(error);
      });
      child.once('spawn', () => {
        if (child.pid) groups.add(child.pid);
        resolve();
      });
      child.once('close', () => {
        if (child.pid) {
          // The leader is gone; anything it left in its group goes too.
          killGroup(child.pid, 'SIGKILL');
          groups.delete(child.pid);
        }
        this.child = undefined;
        this.onclose?.();
      });
      child.stdin?.on('error', (error) => this.onerror?.(error));
      child.stdout?.on('data', (chunk: Buffer) => {
        this.buffer.append(chunk);
        for (;;) {
          let message: JSONRPCMessage | null;
          try {
            message = this.buffer.readMessage();
          } catch (error) {
            this.onerror?.(error as Error);
            continue;
          }
          if (message === null) break;
          this.onmessage?.(message);
        }
      });
      child.stderr?.on('data', (chunk: Buffer) => {
        this.stderr = (this.stderr + chunk.toString('utf8')).slice(-STDERR_TAIL * 4);
      });
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
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

  /** Ends the server: closes its stdin, then SIGTERM and SIGKILL to its process group. */
  async close(): Promise<void> {
    const child = this.child;
    const exited = this.exited;
    this.buffer.clear();
    if (!child || !exited || child.pid === undefined) return;
    const pid = child.pid;
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
    killGroup(pid, 'SIGKILL');
    groups.delete(pid);
  }
}
