import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { checkAuth, recordHeaders } from './auth.js';
import { applyCors } from './cors.js';
import { buildMessage } from './message.js';
import { estimateTokens, PromptCache } from './prompt-cache.js';
import { type Exchange, sendError, sendFault, sendReply } from './respond.js';
import type {
  FakeAnthropicOptions,
  FakeAnthropicServer,
  FakeHandler,
  FakeStep,
  RecordedRequest,
  RequestOutcome,
} from './types.js';
import { validateMessagesRequest } from './validate.js';

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    request.on('data', (part: Buffer) => parts.push(part));
    request.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    request.on('error', reject);
  });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * Starts a local server speaking the Anthropic Messages API (`POST /v1/messages`, streaming and
 * not) on a free 127.0.0.1 port. Each valid request is answered by the next queued step, else by
 * the handler; invalid requests get the API's 400 and are recorded in `validationErrors`.
 */
export async function startFakeAnthropic(options: FakeAnthropicOptions = {}): Promise<FakeAnthropicServer> {
  const queue: FakeStep[] = [...(options.script ?? [])];
  let handler: FakeHandler | undefined = options.handler;
  const requests: RecordedRequest[] = [];
  const validationErrors: string[] = [];
  const unscripted: string[] = [];
  const cache = new PromptCache({
    ...(options.minCacheTokens !== undefined ? { minTokens: options.minCacheTokens } : {}),
    ...(options.now ? { now: options.now } : {}),
  });
  const chunkSize = options.chunkSize ?? 16;
  const waiters: { count: number; resolve: () => void }[] = [];
  const sockets = new Set<Socket>();
  let messages = 0;

  const notify = () => {
    for (const waiter of [...waiters])
      if (requests.length >= waiter.count) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
  };

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const cors = options.cors === undefined ? undefined : applyCors(request, response, options.cors);
    if (cors && 'preflight' in cors) return;
    const text = await readBody(request);
    const index = requests.length;
    const requestId = `req_fake_${String(index).padStart(4, '0')}`;
    let settle: (outcome: RequestOutcome) => void = () => {};
    const finished = new Promise<RequestOutcome>((resolve) => {
      settle = resolve;
    });
    const body = parseJson(text) as any;
    const record: RecordedRequest = {
      index,
      method: request.method ?? 'GET',
      path: request.url ?? '/',
      headers: recordHeaders(request.headers),
      auth: request.headers['x-api-key'] ? 'x-api-key' : request.headers.authorization ? 'bearer' : 'none',
      body,
      stream: Boolean(body?.stream),
      validationErrors: [],
      finished,
    };
    const exchange: Exchange = { response, record, requestId, chunkSize, dropped: false };
    response.on('close', () =>
      settle(exchange.dropped ? 'dropped' : response.writableFinished ? 'completed' : 'client-closed'),
    );
    requests.push(record);
    notify();

    const invalid = (message: string, status = 400, type = 'invalid_request_error') => {
      record.validationErrors.push(message);
      validationErrors.push(`request ${index}: ${message}`);
      sendError(exchange, status, type, message, 'invalid');
    };
    if (request.method !== 'POST' || record.path.split('?')[0] !== '/v1/messages')
      return invalid(
        `${record.method} ${record.path} is not an endpoint of the fake (POST /v1/messages)`,
        404,
        'not_found_error',
      );
    const denied = cors?.refused ?? checkAuth(request.headers, options.apiKey);
    if (denied) return sendError(exchange, 401, 'authentication_error', denied, 'unauthorized');
    if (!request.headers['anthropic-version']) return invalid('anthropic-version: header is required');
    if (body === undefined)
      return invalid(
        'There was an error parsing the body of your request. Please make sure it is valid JSON.',
      );
    const issues = validateMessagesRequest(body);
    if (issues.length > 0) {
      record.validationErrors.push(...issues);
      for (const issue of issues) validationErrors.push(`request ${index}: ${issue}`);
      return sendError(exchange, 400, 'invalid_request_error', issues.join('; '), 'invalid');
    }

    const step = queue.shift() ?? (handler ? await handler(record) : undefined);
    if (!step) {
      const message = `fake-anthropic: no scripted response for request ${index} (the queue is empty and there is no handler)`;
      unscripted.push(message);
      return sendError(exchange, 400, 'invalid_request_error', message, 'unscripted');
    }
    const usage =
      options.simulateCache === false
        ? {
            input: Math.max(1, estimateTokens(JSON.stringify(body))),
            cacheRead: 0,
            cacheWrite: 0,
            cacheWrite5m: 0,
            cacheWrite1h: 0,
          }
        : cache.account(body);
    if ('fault' in step)
      return sendFault(
        exchange,
        step,
        buildMessage(
          { content: [{ type: 'text', text: 'This answer is cut off before it ends.' }] },
          body.model,
          ++messages,
          usage,
        ),
      );
    const message = buildMessage(step, body.model, ++messages, usage);
    record.usage = message.usage;
    return sendReply(exchange, step, message);
  }

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(500, { 'content-type': 'text/plain' });
      response.end(`fake-anthropic crashed: ${error instanceof Error ? error.message : String(error)}`);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;

  const problems = () => [...validationErrors, ...unscripted];
  const assertValid = () => {
    const found = problems();
    if (found.length > 0)
      throw new Error(
        `fake-anthropic saw ${found.length} invalid or unscripted request(s):\n  ${found.join('\n  ')}`,
      );
  };

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    validationErrors,
    enqueue: (...steps) => {
      queue.push(...steps);
    },
    setHandler: (next) => {
      handler = next;
    },
    get pending() {
      return queue.length;
    },
    waitForRequests: (count) =>
      new Promise((resolve) => {
        waiters.push({ count, resolve: () => resolve(requests.slice(0, count)) });
        notify();
      }),
    assertValid,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      if (options.strict) assertValid();
    },
  };
}
