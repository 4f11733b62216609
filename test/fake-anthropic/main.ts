// Runs the fake Anthropic server as its own process, for end-to-end tests of the CLI:
//   npx tsx test/fake-anthropic/main.ts [--port N] [--script file.json] [--handler file.mjs]
//                                       [--api-key KEY] [--strict]
// Prints one JSON line per event on stdout: first {"event":"listening","url","port"}, then
// {"event":"request",...} as each exchange ends. SIGINT/SIGTERM stop it; with --strict the exit
// code is 1 when any request was invalid or unscripted.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { loadHandlerFile } from './handler-file.js';
import { parseScriptFile } from './script-file.js';
import { startFakeAnthropic } from './server.js';
import type { FakeAnthropicOptions } from './types.js';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '0' },
    script: { type: 'string' },
    handler: { type: 'string' },
    'api-key': { type: 'string' },
    strict: { type: 'boolean', default: false },
    'chunk-size': { type: 'string' },
  },
});

function fail(message: string): never {
  process.stderr.write(`fake-anthropic: ${message}\n`);
  process.exit(2);
}

const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`--port must be 0..65535, got ${values.port}`);
const options: FakeAnthropicOptions = { port, strict: values.strict };
if (values['api-key']) options.apiKey = values['api-key'];
if (values['chunk-size']) options.chunkSize = Number(values['chunk-size']);
if (values.script) {
  let script: ReturnType<typeof parseScriptFile>;
  try {
    script = parseScriptFile(JSON.parse(readFileSync(values.script, 'utf8')), values.script);
  } catch (error) {
    fail(error instanceof Error ? error.message : String(error));
  }
  options.script = script.steps;
  const fallback = script.fallback;
  if (fallback) options.handler = () => fallback;
}
if (values.handler) {
  if (options.handler) fail('give --handler or a script with a "fallback", not both');
  try {
    options.handler = await loadHandlerFile(values.handler);
  } catch (error) {
    fail(error instanceof Error ? error.message : String(error));
  }
}

const server = await startFakeAnthropic(options);
const print = (line: Record<string, unknown>) => process.stdout.write(`${JSON.stringify(line)}\n`);
print({ event: 'listening', url: server.url, port: server.port });

// Report each exchange when it ends, without letting a hanging one hold back the others.
void (async () => {
  for (let index = 0; ; index++) {
    const request = (await server.waitForRequests(index + 1))[index];
    if (!request) continue;
    void request.finished.then((outcome) =>
      print({
        event: 'request',
        index: request.index,
        action: request.action,
        status: request.status,
        outcome,
        validationErrors: request.validationErrors,
      }),
    );
  }
})();

const stop = async () => {
  try {
    await server.close();
    process.exit(0);
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
};
process.once('SIGINT', () => void stop());
process.once('SIGTERM', () => void stop());
