import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { timelineLine } from '../timeline/timeline-jsonl.js';
import type { TimelineHeader, TimelineRecord } from '../timeline/types.js';
import { serveStatic } from './static-files.js';
import { type RelayStore, serveStore } from './store-routes.js';

/** Options of {@link createRelay}. */
export interface RelayOptions {
  /**
   * The live timeline's header, sent first to every viewer. Without it the relay streams nothing
   * (`/timeline/events` answers 404) and serves the page and the store only.
   */
  header?: TimelineHeader;
  /** A task store whose tasks the page may open, each replayed by this process (`/store/…`). */
  store?: RelayStore;
  /** The built web app (`apps/web/dist`), served at `/`. Without it only the timeline routes answer. */
  appDir?: string;
  /** Port on 127.0.0.1; 0 (the default) picks a free one. */
  port?: number;
}

/** A running relay. */
export interface Relay {
  /** `http://127.0.0.1:PORT`. */
  readonly url: string;
  /**
   * The offline inspector on this relay: `URL/#/inspector?source=relay` following the timeline,
   * or `URL/#/inspector?source=store` (the store's tasks) when there is no timeline.
   */
  readonly inspectorUrl: string;
  /** Adds a record to the timeline and streams it to every viewer. */
  publish(record: TimelineRecord): void;
  /** Viewers connected now. */
  readonly viewers: number;
  /** Ends every viewer's stream and stops the server; resolves once it is closed. */
  close(): Promise<void>;
}

/**
 * The local relay behind `troupe --inspect`: an HTTP server on 127.0.0.1 (never another interface)
 * that serves the web app's offline inspector and streams a timeline to it with server-sent events.
 * `GET /timeline/events` sends the header and every record so far, then each new record as it is
 * published; `GET /timeline.jsonl` is the timeline so far as a file; with a `store`, `/store/tasks`
 * lists its tasks and `/store/tasks/ID/replay` replays one (see `serveStore`). A request naming
 * another host than 127.0.0.1 or localhost (a DNS-rebinding page) is refused. Nothing here needs
 * the internet.
 */
export async function createRelay(options: RelayOptions): Promise<Relay> {
  const lines: string[] = options.header ? [timelineLine(options.header)] : [];
  const viewers = new Set<ServerResponse>();
  const appDir = options.appDir ? resolve(options.appDir) : undefined;
  let hosts = new Set<string>();
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://127.0.0.1').pathname;
    if (!hosts.has(request.headers.host ?? '')) {
      response.writeHead(403, { 'content-type': 'text/plain; charset=utf-8' });
      response.end(`This relay answers only at ${[...hosts].join(' or ')}.\n`);
      return;
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { allow: 'GET' }).end();
      return;
    }
    if (path === '/timeline/events' && lines.length > 0) {
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
    if (path === '/timeline.jsonl' && lines.length > 0) {
      response.writeHead(200, { 'content-type': 'application/x-ndjson', 'cache-control': 'no-cache' });
      response.end(lines.join(''));
      return;
    }
    void (async () => {
      if (options.store && path.startsWith('/store/') && (await serveStore(options.store, path, response)))
        return;
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
  hosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    inspectorUrl: `${url}/#/inspector?source=${options.header ? 'relay' : 'store'}`,
    get viewers() {
      return viewers.size;
    },
    publish(record) {
      if (lines.length === 0) throw new Error('This relay has no timeline to publish to (no header).');
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
