import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createRelay, type Relay } from '../src/node/relay.js';
import { createRecorder } from '../src/timeline/recorder.js';
import { parseTimeline } from '../src/timeline/timeline-jsonl.js';
import { scenarios } from './fixtures.js';

const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0)) await step();
});

/** Reads server-sent events' data lines until `count` have arrived. */
async function readEvents(url: string, count: number): Promise<{ events: unknown[]; stop: () => void }> {
  const controller = new AbortController();
  const response = await fetch(url, { signal: controller.signal });
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  const events: unknown[] = [];
  let buffer = '';
  while (events.length < count) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let end = buffer.indexOf('\n\n');
    while (end >= 0) {
      const chunk = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      if (chunk.startsWith('data: ')) events.push(JSON.parse(chunk.slice(6)));
      end = buffer.indexOf('\n\n');
    }
  }
  return { events, stop: () => controller.abort() };
}

async function relayWith(appDir?: string): Promise<Relay> {
  const relay = await createRelay({ header: createRecorder().header, ...(appDir ? { appDir } : {}) });
  cleanup.push(() => relay.close());
  return relay;
}

describe('createRelay', () => {
  it('listens on 127.0.0.1 only and streams the timeline so far, then each new record, to every viewer', async () => {
    const run = await scenarios.goal!();
    const relay = await relayWith();
    expect(relay.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const [first, ...rest] = run.timeline.records;
    relay.publish(first!);
    const early = readEvents(`${relay.url}/timeline/events`, run.timeline.records.length + 1);
    await expect.poll(() => relay.viewers).toBe(1);
    for (const record of rest) relay.publish(record);
    const { events, stop } = await early;
    stop();
    expect(events[0]).toMatchObject({ format: 'troupe.timeline', v: 1 });
    expect(events.slice(1)).toEqual(run.timeline.records);
    // A late viewer gets everything too, and the file route is a valid timeline.
    const late = await readEvents(`${relay.url}/timeline/events`, run.timeline.records.length + 1);
    late.stop();
    expect(late.events.slice(1)).toEqual(run.timeline.records);
    const file = await (await fetch(`${relay.url}/timeline.jsonl`)).text();
    expect(parseTimeline(file, 'relay').records).toEqual(run.timeline.records);
  });

  it('serves the built web app, and nothing outside it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'troupe-relay-'));
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
    const app = join(dir, 'dist');
    mkdirSync(join(app, 'assets'), { recursive: true });
    writeFileSync(join(app, 'index.html'), '<!doctype html><title>troupe</title>');
    writeFileSync(join(app, 'assets', 'main.js'), 'console.log(1)');
    writeFileSync(join(dir, 'secret.txt'), 'do not serve');
    const relay = await relayWith(app);
    const index = await fetch(`${relay.url}/`);
    expect(index.headers.get('content-type')).toMatch(/text\/html/);
    expect(await index.text()).toContain('<title>troupe</title>');
    const script = await fetch(`${relay.url}/assets/main.js`);
    expect(script.headers.get('content-type')).toMatch(/javascript/);
    for (const path of ['/../secret.txt', '/%2e%2e/secret.txt', '/assets/%2e%2e/%2e%2e/secret.txt']) {
      const response = await fetch(`${relay.url}${path}`);
      expect(response.status, path).toBe(404);
      expect(await response.text()).not.toContain('do not serve');
    }
  });

  it('says how to build the web app when it has none', async () => {
    const relay = await relayWith();
    const response = await fetch(`${relay.url}/`);
    expect(response.status).toBe(404);
    expect(await response.text()).toMatch(/web app is not built/);
  });
});
