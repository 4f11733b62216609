// Consumer tests (issue #22): every published package packed and installed with npm into apps
// outside the workspace, then used there as a user would, against a local fake of the Messages
// API: the README's example verbatim, CommonJS `require`, TypeScript with `nodenext` and with
// `bundler` resolution, and each example of examples/ (a Vite build run in Chromium, a chat
// server driven through its page). The packages must be built first (`pnpm build`; the test
// command builds them).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startTestCluster } from '@troupe/postgres/testing';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeAnthropicServer } from '../fake-anthropic/index.js';
import { AUTH_LINE, FAKE_KEY, NOTE, startConsumerFake } from './fake-model.js';
import { type Consumers, installConsumers, REPO } from './install.js';
import { launchChromium, runToEnd, serveStatic, startServer } from './processes.js';

let consumers: Consumers;
let fake: FakeAnthropicServer;
let browser: Browser | undefined;
let scratch: string;

/** A fresh folder beside the npm project (removed with it). */
function folder(name: string): string {
  const dir = join(scratch, name);
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** A small project for the agents to look at, with its own HOME. */
function project(name: string): { cwd: string; env: NodeJS.ProcessEnv } {
  const cwd = folder(`${name}/project`);
  mkdirSync(join(cwd, 'src'));
  writeFileSync(join(cwd, 'src/auth.js'), `${AUTH_LINE} {\n  return token === 'ok';\n}\n`);
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: folder(`${name}/home`),
    TMPDIR: folder(`${name}/tmp`),
    ANTHROPIC_API_KEY: FAKE_KEY,
    ANTHROPIC_BASE_URL: fake.url,
  };
  return { cwd, env };
}

/** The TypeScript code block of the README's "Using it" section. */
function readmeExample(): string {
  const readme = readFileSync(join(REPO, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('\n## Using it'));
  const block = /```ts\n([\s\S]*?)```/.exec(section);
  if (!block) throw new Error('README.md: no ```ts block under "## Using it"');
  return block[1]!;
}

beforeAll(async () => {
  consumers = await installConsumers();
  scratch = join(consumers.root, '..', 'scratch');
  const { packSeconds, installSeconds } = consumers.timings;
  console.log(
    `consumers: packed in ${packSeconds.toFixed(1)} s, npm install in ${installSeconds.toFixed(1)} s`,
  );
  fake = await startConsumerFake();
}, 600_000);

afterAll(async () => {
  try {
    await browser?.close();
    await fake?.close(); // strict: rejects if an app sent an invalid request
  } finally {
    consumers?.remove();
  }
}, 120_000);

async function chromium(): Promise<Browser> {
  browser ??= await launchChromium();
  return browser;
}

/**
 * Builds the example `name` with Vite, serves its dist/ and opens a Chromium page, then runs
 * `check` with the page, its URL and the page's uncaught errors so far; the page and the server
 * are closed after.
 */
async function withBuiltPage(
  name: string,
  check: (page: Page, url: string, errors: string[]) => Promise<void>,
): Promise<void> {
  const app = consumers.app(name);
  const vite = join(consumers.root, 'node_modules/vite/bin/vite.js');
  const build = await runToEnd(process.execPath, [vite, 'build', '--logLevel', 'warn'], { cwd: app });
  expect(build.code, build.stdout + build.stderr).toBe(0);
  const served = await serveStatic(join(app, 'dist'));
  const page = await (await chromium()).newPage();
  try {
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await check(page, served.url, errors);
  } finally {
    await page.close();
    await served.close();
  }
}

describe('the packages installed from their tarballs', () => {
  it("runs the README's example verbatim (examples/node-delegate) with Node", async () => {
    const app = consumers.app('node-delegate');
    expect(readFileSync(join(app, 'delegate.mjs'), 'utf8')).toBe(readmeExample());
    const { cwd, env } = project('readme');
    const run = await runToEnd(process.execPath, [join(app, 'delegate.mjs')], { cwd, env });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    // spawn: explore's own answer; then the session's main agent, which delegated to explore.
    expect(run.stdout).toContain(`Auth is handled here: src/auth.js:1:${AUTH_LINE} {`);
    expect(run.stdout).toContain('The sub-agent reported: Auth is handled here');
    expect(run.stdout).toMatch(/\[explore\] .+ \.\.\. 1 tools/);
    // The file store's default home: ~/.troupe/tasks.
    expect(readFileSync(join(env.HOME!, '.troupe/tasks/tasks.jsonl'), 'utf8')).toContain('"completed"');
  }, 60_000);

  it('loads every package from CommonJS with require() (require(esm), Node 20.19+)', async () => {
    const file = join(consumers.root, 'require-all.cjs');
    writeFileSync(
      file,
      [
        "const names = ['@troupe/core', '@troupe/core/testing', '@troupe/core/store', '@troupe/core/workspace',",
        "  '@troupe/anthropic', '@troupe/node', '@troupe/mcp', '@troupe/inspect', '@troupe/postgres', '@troupe/browser'];",
        'for (const name of names) console.log(name, Object.keys(require(name)).length > 0);',
        "console.log(typeof require('@troupe/core').createRuntime);",
      ].join('\n'),
    );
    const run = await runToEnd(process.execPath, [file], { cwd: consumers.root });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout.trim().split('\n')).toEqual([
      '@troupe/core true',
      '@troupe/core/testing true',
      '@troupe/core/store true',
      '@troupe/core/workspace true',
      '@troupe/anthropic true',
      '@troupe/node true',
      '@troupe/mcp true',
      '@troupe/inspect true',
      '@troupe/postgres true',
      '@troupe/browser true',
      'function',
    ]);
  }, 60_000);

  it('type-checks a TypeScript app with moduleResolution nodenext and bundler, strict, skipLibCheck false, without vitest', async () => {
    const tsc = join(consumers.root, 'node_modules/typescript/bin/tsc');
    const app = consumers.app('typescript');
    // store-suite.ts uses the conformance suites of @troupe/core/store: their types must not need a
    // test framework, so none is installed here.
    expect(existsSync(join(consumers.root, 'node_modules/vitest'))).toBe(false);
    // tsc is single-threaded: the two programs at once can use two cores.
    const runs = await Promise.all(
      ['nodenext', 'bundler'].map((resolution) =>
        runToEnd(process.execPath, [tsc, '-p', join(app, `tsconfig.${resolution}.json`)], {
          cwd: app,
          timeoutMs: 400_000,
        }),
      ),
    );
    for (const run of runs) {
      expect(run.stdout + run.stderr).toBe('');
      expect(run.code).toBe(0);
    }
  }, 420_000);
});

describe('the examples, installed from the tarballs', () => {
  it('browser-app: type-checks, builds with Vite, and runs in Chromium (IndexedDB store, OPFS tools, a sub-agent)', async () => {
    // `npm run build` is `tsc && vite build`; its tsc part runs in the bundler type-check above
    // (test/consumers/apps/typescript/tsconfig.bundler.json includes this app's sources).
    await withBuiltPage('browser-app', async (page, url, errors) => {
      page.on('dialog', (dialog) => void dialog.accept()); // the write's approval
      await page.goto(url);
      await page.fill('#key', FAKE_KEY);
      await page.fill('#base-url', fake.url);
      await page.fill('#prompt', 'Keep a note that the demo works, then read it back.');
      await page.click('button');
      await page.waitForSelector('#answer[data-status]', { timeout: 60_000 });
      expect(await page.getAttribute('#answer', 'data-status')).toBe('completed');
      // The read tool numbers the lines it returns.
      expect(await page.textContent('#answer')).toMatch(
        new RegExp(`notes\\.md says: +1\t# Notes[^]*3\t${NOTE}`),
      );
      expect(await page.textContent('#files')).toContain('notes.md');
      expect(await page.textContent('#log')).toMatch(/\[notes\] .+ completed/);
      const stored = (await page.evaluate(
        'indexedDB.databases().then((databases) => databases.map((database) => database.name))',
      )) as string[];
      expect(stored).toContain('troupe-tasks:troupe-example');
      expect(errors).toEqual([]);
    });
  }, 240_000);

  it("chat-server: streams a session's events and approvals to its page over server-sent events", async () => {
    const app = consumers.app('chat-server');
    const { cwd, env } = project('chat');
    const server = await startServer(join(app, 'server.mjs'), {
      cwd: app,
      env: { ...env, PORT: '0', WORKSPACE: cwd },
    });
    const page = await (await chromium()).newPage();
    try {
      await page.goto(server.url);
      await page.fill('#text', 'Write a note file for me');
      await page.click('button');
      // general-purpose asks to write; the page shows the request with Allow / Deny.
      await page.click('.approval button:text("Allow")', { timeout: 30_000 });
      await page.waitForSelector('.reply', { timeout: 30_000 });
      expect(await page.textContent('.reply')).toContain('The sub-agent reported: Wrote chat-note.txt');
      expect(await page.textContent('.approval')).toContain('write: approved');
      expect(await page.textContent('#log')).toMatch(/\[general-purpose\] .+ task\.completed \(1 tools\)/);
      expect(readFileSync(join(cwd, 'chat-note.txt'), 'utf8')).toBe('written from the chat page\n');
    } finally {
      await page.close();
      expect(await server.stop()).toBe(0);
    }
  }, 120_000);
});

describe('examples/cluster, installed from the tarballs, on a throwaway Postgres', () => {
  it('cluster: two workers run the tasks a client queues in Postgres, and stop cleanly', async () => {
    const postgres = await startTestCluster();
    try {
      const url = await postgres.createDatabase('troupe_example');
      const app = consumers.app('cluster');
      const { cwd, env } = project('cluster');
      const clusterEnv = { ...env, DATABASE_URL: url, WORKSPACE: cwd };
      const workers = await Promise.all(
        ['worker-one', 'worker-two'].map((id) =>
          startServer(join(app, 'worker.mjs'), {
            cwd: app,
            env: { ...clusterEnv, WORKER_ID: id },
            ready: /worker \S+ ready/,
            timeoutMs: 90_000,
          }),
        ),
      );
      try {
        const prompts = [
          'Find where auth is handled',
          'Which file checks a token?',
          'Find checkAuth',
          'Auth?',
        ];
        const run = await runToEnd(process.execPath, [join(app, 'spawn.mjs'), ...prompts], {
          cwd: app,
          env: clusterEnv,
          timeoutMs: 120_000,
        });
        expect(run.code, run.stdout + run.stderr).toBe(0);
        expect(run.stdout.match(/: completed\n {2}Auth is handled here: src\/auth\.js:1:/g)).toHaveLength(4);
        // Every task was run by one of the two workers, and each said so.
        const completed = workers.map(
          (worker) => worker.output().match(/ completed \(1 tools\)/g)?.length ?? 0,
        );
        expect(completed[0]! + completed[1]!).toBe(4);
      } finally {
        for (const worker of workers) expect(await worker.stop()).toBe(0);
      }
    } finally {
      await postgres.destroy();
    }
  }, 300_000);
});

describe('a package in the wrong environment', () => {
  it('@troupe/node in a browser bundle (Vite) fails at import with a message naming @troupe/browser', async () => {
    await withBuiltPage('wrong-environment', async (page, url, errors) => {
      await page.goto(url);
      // A string, run in the page: this file is compiled without the DOM's types.
      await page.waitForFunction("document.querySelector('#error')?.textContent !== ''", undefined, {
        timeout: 30_000,
      });
      const shown = await page.textContent('#error');
      expect(shown).toContain('@troupe/node runs in Node.js only');
      expect(shown).toContain('use @troupe/browser');
      expect(errors).toHaveLength(1);
      expect(errors[0]).toContain('use @troupe/browser');
    });
  }, 120_000);
});
