import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { timelineLine } from '../timeline/timeline-jsonl.js';
import type { TimelineHeader, TimelineRecord } from '../timeline/types.js';
import { serveStatic } from './static-files.js';

/** Options of {@link createRelay}. */
export interface RelayOptions {
  /** The timeline's header, sent first to every viewer. */
  header: TimelineHeader;
  /** The built web app (`apps/web/dist`), served at `/`. Without it only the timeline routes answer. */
  appDir?: string;
  /** Port on 127.0.0.1; 0 (the default) picks a free one. */
  port?: number;
}

/** A running relay. */
export interface Relay {
  /** `http://127.0.0.1:PORT`. */
  readonly url: string;
  /** The offline inspector following this relay: `URL/#/inspector?source=relay`. */
  readonly inspectorUrl: string;
  /** Adds a record to the timeline and streams it to every viewer. */
  publish(record: TimelineRecord): void;
  /** Viewers connected now. */
  readonly viewers: number;
  close(): Promise<void>;
}

/**
 * The local relay behind `troupe --inspect`: an HTTP server on 127.0.0.1 (never another interface)
 * that serves the web app's offline inspector and streams a timeline to it with server-sent events.
 * `GET /timeline/events` sends the header and every record so far, then each new record as it is
 * published; `GET /timeline.jsonl` is the timeline so far as a file. Nothing here needs the internet.
 */
export async function createRelay(options: RelayOptions): Promise<Relay> {
  const lines: string[] = [timelineLine(options.header)];
  const viewers = new Set<ServerResponse>();
  const appDir = options.appDir ? resolve(options.appDir) : undefined;
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://127.0.0.1').pathname;
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { allow: 'GET' }).end();
      return;
    }
    if (path === '/timeline/events') {
      response.writeHead(200, {
        'content-type': 'text/event-stream',
        'cache-control': 'no-cache',
        connection: 'keep-alive',
      });
      for (const line of lines) response.write(`data: ${line.trimEnd()}\n\n`);
      viewers.add(response);
      request.on('close', () => viewers.delete(response));
      return;
    }
    if (path === '/timeline.jsonl') {
      response.writeHead(200, { 'content-type': 'application/x-ndjson', 'cache-control': 'no-cache' });
      response.end(lines.join(''));
      return;
    }
    void (async () => {
      if (appDir && (await serveStatic(appDir, path, response))) return;
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
      response.end(
        appDir
          ? `Not found: ${path}\n`
          : 'The web app is not built, so the inspector page cannot be served: run `pnpm build` in the troupe checkout. The timeline is at /timeline.jsonl.\n',
      );
    })().catch(() => {
      if (!response.headersSent) response.writeHead(500);
      response.end();
    });
  });
  await new Promise<void>((done, fail) => {
    server.once('error', fail);
    server.listen(options.port ?? 0, '127.0.0.1', () => done());
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    inspectorUrl: `${url}/#/inspector?source=relay`,
    get viewers() {
      return viewers.size;
    },
    publish(record) {
      const line = timelineLine(record);
      lines.push(line);
      const message = `data: ${line.trimEnd()}\n\n`;
      for (const viewer of viewers) viewer.write(message);
    },
    close() {
      for (const viewer of viewers) viewer.end();
      viewers.clear();
      server.closeAllConnections();
      return new Promise((done) => server.close(() => done()));
    },
  };
}
