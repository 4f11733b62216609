// Running the consumer apps: a Node program to its end, a server until it says where it listens,
// a built page served over HTTP, and Debian's Chromium to open pages.

import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize } from 'node:path';
import { type Browser, chromium } from 'playwright-core';
import { chromiumLaunchOptions } from '../chromium.js';
import { type Finished, runToEnd as runProcess } from '../helpers/run-to-end.js';

export type { Finished } from '../helpers/run-to-end.js';

/** Runs `command args` to its end (killed after `timeoutMs`, default 2 minutes). */
export function runToEnd(
  command: string,
  args: readonly string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs?: number },
): Promise<Finished> {
  return runProcess(command, args, { timeoutMs: 120_000, ...options });
}

/** A long-running process that said it is ready (a server: the URL it listens on). */
export interface RunningServer {
  child: ChildProcess;
  /** What matched `ready` (by default the http:// URL it printed). */
  url: string;
  output(): string;
  /** SIGTERM, then waits for the exit; resolves to the exit code. */
  stop(): Promise<number | null>;
}

/**
 * Starts `node file` and resolves once its output matches `ready` (default: an http:// URL of
 * 127.0.0.1, a server listening).
 */
export function startServer(
  file: string,
  options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs?: number; ready?: RegExp },
): Promise<RunningServer> {
  const child = spawn(process.execPath, [file], { cwd: options.cwd, env: options.env });
  const ready = options.ready ?? /http:\/\/127\.0\.0\.1:\d+/;
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${file} did not print ${ready} in time:\n${output}`));
    }, options.timeoutMs ?? 30_000);
    const read = (chunk: string) => {
      output += chunk;
      const url = ready.exec(output)?.[0];
      if (!url) return;
      clearTimeout(timer);
      resolve({
        child,
        url,
        output: () => output,
        stop: async () => {
          if (child.exitCode !== null) return child.exitCode;
          child.kill('SIGTERM');
          const [code] = await once(child, 'exit');
          return code as number | null;
        },
      });
    };
    child.stdout.setEncoding('utf8').on('data', read);
    child.stderr.setEncoding('utf8').on('data', read);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${file} exited (${code}) before it was ready:\n${output}`));
    });
  });
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
  '.wasm': 'application/wasm',
};

/** Serves the files of `dir` (a production build) on a free 127.0.0.1 port. */
export async function serveStatic(dir: string): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer(async (request, response) => {
    const path = normalize(new URL(request.url ?? '/', 'http://x').pathname).replace(/^(\.\.[/\\])+/, '');
    const file = join(dir, path.endsWith('/') ? `${path}index.html` : path);
    try {
      const body = await readFile(file);
      response
        .writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' })
        .end(body);
    } catch {
      response.writeHead(404).end();
    }
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** Debian's Chromium, headless, as the other browser tests launch it. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch(chromiumLaunchOptions);
}
