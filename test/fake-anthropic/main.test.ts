import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const main = fileURLToPath(new URL('./main.ts', import.meta.url));
const bin = fileURLToPath(new URL('./bin.mjs', import.meta.url));
const KEY = 'sk-cli-key';
const children: ChildProcess[] = [];
// The script and handler files of this file's tests, in one temporary folder removed at the end.
const work = mkdtempSync(join(tmpdir(), 'fake-anthropic-'));

afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A fresh folder inside `work`. */
function folder(): string {
  return mkdtempSync(join(work, 'case-'));
}

afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

interface Running {
  child: ChildProcess;
  lines: AsyncIterator<string>;
  next(): Promise<any>;
  stderr(): string;
}

function run(args: string[], entry: string[] = ['--import', 'tsx', main]): Running {
  const child = spawn(process.execPath, [...entry, ...args], { cwd: root, stdio: 'pipe' });
  children.push(child);
  let errors = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    errors += chunk.toString();
  });
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  return {
    child,
    lines,
    next: async () => JSON.parse(String((await lines.next()).value)),
    stderr: () => errors,
  };
}

function scriptFile(script: unknown): string {
  const file = join(folder(), 'script.json');
  writeFileSync(file, JSON.stringify(script));
  return file;
}

function post(url: string, body: unknown) {
  return fetch(`${url}/v1/messages`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'anthropic-version': '2023-06-01',
      authorization: `Bearer ${KEY}`,
    },
    body: JSON.stringify(body),
  });
}

const valid = { model: 'claude-x', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] };

describe('fake-anthropic as a process', () => {
  it('serves a script file, reports each exchange as a JSON line, and exits 0 on SIGTERM', async () => {
    const script = scriptFile({
      steps: [{ fault: 'overloaded' }],
      fallback: { content: [{ type: 'text', text: 'fallback answer' }] },
    });
    const fake = run(['--script', script, '--api-key', KEY, '--strict']);
    const listening = await fake.next();
    expect(listening).toMatchObject({
      event: 'listening',
      url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/),
    });
    expect((await post(listening.url, valid)).status).toBe(529);
    expect(await fake.next()).toMatchObject({
      event: 'request',
      index: 0,
      action: 'overloaded',
      status: 529,
    });
    expect(((await (await post(listening.url, valid)).json()) as any).content).toEqual([
      { type: 'text', text: 'fallback answer', citations: null },
    ]);
    expect(await fake.next()).toMatchObject({
      event: 'request',
      index: 1,
      action: 'reply',
      outcome: 'completed',
    });
    fake.child.kill('SIGTERM');
    const [code] = await once(fake.child, 'exit');
    expect(code).toBe(0);
  });

  it('with --strict, exits 1 and lists invalid requests', async () => {
    const fake = run(['--strict', '--script', scriptFile({ steps: [] })]);
    const { url } = await fake.next();
    expect((await post(url, { ...valid, max_tokens: undefined })).status).toBe(400);
    expect(await fake.next()).toMatchObject({
      action: 'invalid',
      validationErrors: ['max_tokens: Field required'],
    });
    fake.child.kill('SIGTERM');
    const [code] = await once(fake.child, 'exit');
    expect(code).toBe(1);
    expect(fake.stderr()).toContain('request 0: max_tokens: Field required');
  });

  it('answers by request content with --handler file.mjs; bin.mjs is one process that SIGTERM stops', async () => {
    const dir = folder();
    const handler = join(dir, 'handler.mjs');
    writeFileSync(
      handler,
      [
        'export default (request, { textStep, systemOf, lastUserText }) =>',
        "  textStep((systemOf(request) || 'main') + ' got ' + lastUserText(request));",
      ].join('\n'),
    );
    const fake = run(['--handler', handler, '--api-key', KEY, '--strict'], [bin]);
    const { url } = await fake.next();
    // Two "agents" asking at once, in either order: each gets the answer meant for it.
    const [second, first] = await Promise.all([
      post(url, { ...valid, system: 'reviewer', messages: [{ role: 'user', content: 'two' }] }),
      post(url, { ...valid, system: 'explorer', messages: [{ role: 'user', content: 'one' }] }),
    ]);
    expect(((await second.json()) as any).content[0].text).toBe('reviewer got two');
    expect(((await first.json()) as any).content[0].text).toBe('explorer got one');
    fake.child.kill('SIGTERM');
    const [code] = await once(fake.child, 'exit');
    expect(code).toBe(0);
    // Nothing of it is left running: the port no longer answers.
    await expect(post(url, valid)).rejects.toThrow();
  });

  it('exits 2 naming a handler file without a handler function', async () => {
    const dir = folder();
    const handler = join(dir, 'empty.mjs');
    writeFileSync(handler, 'export const answer = 42;\n');
    const fake = run(['--handler', handler]);
    const [code] = await once(fake.child, 'exit');
    expect(code).toBe(2);
    expect(fake.stderr()).toContain(`${handler}: expected a default export (request, helpers) => step`);
  });

  it('exits 2 naming the bad field of a script file', async () => {
    const fake = run(['--script', scriptFile({ steps: [{ content: [{ type: 'text', text: 3 }] }] })]);
    const [code] = await once(fake.child, 'exit');
    expect(code).toBe(2);
    expect(fake.stderr()).toMatch(/script\.json\.steps\[0\]\.content\[0\]\.text: expected a string/);
  });
});
