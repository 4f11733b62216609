// Vitest global setup of the browser project: two local HTTP servers for the fetch tool's redirect
// tests. "allowed" answers `/redirect?status=<3xx>&to=<url>` with that redirect and `/hello` with
// text (`/loop` redirects to itself); "other" stands for an origin off the allow-list and records every request it gets
// (`GET /log` returns them). Both allow any origin (CORS), as a hostile server would.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Origin of the redirecting server the fetch tool is allowed to reach. */
    redirectAllowedOrigin: string;
    /** Origin of the server off the allow-list; `GET /log` lists the requests it received. */
    redirectOtherOrigin: string;
  }
}

/** A request the "other" server received. */
export interface RecordedRequest {
  method: string;
  path: string;
  body: string;
  /** The `authorization` header, or null. */
  authorization: string | null;
}

function cors(response: ServerResponse): void {
  response.setHeader('access-control-allow-origin', '*');
  response.setHeader('access-control-allow-methods', '*');
  response.setHeader('access-control-allow-headers', '*');
  response.setHeader('access-control-expose-headers', '*');
}

function bodyOf(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

function listen(server: Server): Promise<string> {
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () =>
      resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
    );
  });
}

/** Starts both servers; returns their origins and a function that stops them. */
export async function startRedirectServers(): Promise<{
  allowed: string;
  other: string;
  log: RecordedRequest[];
  stop: () => Promise<void>;
}> {
  const log: RecordedRequest[] = [];
  const allowedServer = createServer(async (request, response) => {
    cors(response);
    const url = new URL(request.url ?? '/', 'http://localhost');
    const body = await bodyOf(request);
    if (url.pathname === '/loop') {
      response.writeHead(302, { location: '/loop' });
      response.end();
      return;
    }
    if (url.pathname === '/redirect') {
      response.writeHead(Number(url.searchParams.get('status') ?? 302), {
        location: url.searchParams.get('to') ?? '/',
      });
      response.end();
      return;
    }
    response.writeHead(200, { 'content-type': 'text/plain' });
    response.end(`hello from ${url.pathname}, ${request.method}${body ? ` with "${body}"` : ''}`);
  });
  const otherServer = createServer(async (request, response) => {
    cors(response);
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (request.method === 'OPTIONS') {
      response.writeHead(204);
      response.end();
      return;
    }
    if (url.pathname === '/log') {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(log));
      return;
    }
    log.push({
      method: request.method ?? '',
      path: url.pathname,
      body: await bodyOf(request),
      authorization: request.headers.authorization ?? null,
    });
    response.writeHead(200, { 'content-type': 'text/plain' });
    response.end('the other origin got it');
  });
  const [allowed, other] = await Promise.all([listen(allowedServer), listen(otherServer)]);
  const close = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));
  return {
    allowed,
    other,
    log,
    stop: async () => void (await Promise.all([close(allowedServer), close(otherServer)])),
  };
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const servers = await startRedirectServers();
  project.provide('redirectAllowedOrigin', servers.allowed);
  project.provide('redirectOtherOrigin', servers.other);
  return servers.stop;
}
