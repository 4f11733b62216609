import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createRelay, type Relay } from '../src/node/relay.js';
import type { RelayReplay, RelayStoreError, RelayTaskList } from '../src/relay/store-protocol.js';
import { replayTimeline } from '../src/replay/replay-timeline.js';
import { createRecorder } from '../src/timeline/recorder.js';
import { teamTracks } from '../src/timeline/team-track.js';
import { parseTimeline } from '../src/timeline/timeline-jsonl.js';
import { API_KEY, scenarios } from './fixtures.js';
import { recordTeamJob } from './team-fixture.js';

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

/** GET with a chosen Host header (fetch does not let one set it). */
function getWithHost(url: string, host: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const call = request(url, { headers: { host } }, (response) => {
      let body = '';
      response.setEncoding('utf8').on('data', (chunk: string) => {
        body += chunk;
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    call.on('error', reject);
    call.end();
  });
}

describe('createRelay with a task store', () => {
  it("lists the store's tasks and replays one on request: the timeline, redacted, and its check", async () => {
    const run = await scenarios.approvals!();
    const taskId = run.results[0]!.taskId;
    run.armed.throws = true;
    const relay = await createRelay({
      store: { store: run.store, name: '/tmp/the-store', secrets: [API_KEY] },
    });
    cleanup.push(() => relay.close());
    expect(relay.inspectorUrl).toBe(`${relay.url}/#/inspector?source=store`);
    const list = (await (await fetch(`${relay.url}/store/tasks`)).json()) as RelayTaskList;
    expect(list.store).toBe('/tmp/the-store');
    expect(list.more).toBe(false);
    expect(list.tasks.map((task) => task.taskId)).toContain(taskId);
    expect(list.tasks.find((task) => task.taskId === taskId)).toMatchObject({ status: 'completed' });

    const response = await fetch(`${relay.url}/store/tasks/${encodeURIComponent(taskId)}/replay`);
    expect(response.status).toBe(200);
    const replay = (await response.json()) as RelayReplay;
    expect(replay).toMatchObject({ taskId, exact: true, warnings: [] });
    expect(replay.compared).toEqual([
      'the stored snapshot after ' +
        (await run.store.loadSnapshot(taskId))!.journalLength +
        ' journal entries',
      'the stored result',
    ]);
    const timeline = parseTimeline(replay.timeline, 'relay');
    const local = await replayTimeline(run.store, taskId, { secrets: [API_KEY] });
    expect(timeline.records.length).toBe(local.timeline.records.length);
    expect(timeline.header.source).toEqual({ kind: 'replay', taskId, store: '/tmp/the-store' });
    expect(replay.timeline).toContain('[redacted]');
    expect(replay.timeline).not.toContain(API_KEY);
    // No live timeline: nothing streams.
    expect((await fetch(`${relay.url}/timeline/events`)).status).toBe(404);
    expect(() => relay.publish(timeline.records[0]!)).toThrow(/no timeline/);
  });

  it('replays a team of the store whole: its journal and every spell, in one timeline', async () => {
    const { store, teamId, result } = await recordTeamJob();
    const relay = await createRelay({ store: { store, name: 'the store' } });
    cleanup.push(() => relay.close());
    const replay = (await (
      await fetch(`${relay.url}/store/tasks/${encodeURIComponent(teamId)}/replay`)
    ).json()) as RelayReplay;
    expect(replay).toMatchObject({ taskId: teamId, exact: true, warnings: [] });
    const spells = result.members.reduce((sum, member) => sum + member.spells, 0);
    expect(replay.compared).toEqual([`the team's result and its ${spells} spells`]);
    const [track] = teamTracks(parseTimeline(replay.timeline, 'relay'));
    expect(track!.messages.map((message) => message.id)).toEqual(
      result.messages.map((message) => message.id),
    );
    expect(track!.spells).toHaveLength(spells);
  });

  it('answers an unknown task, a bad id and a journal of another version with an error in words', async () => {
    const run = await scenarios.goal!();
    const taskId = run.results[0]!.taskId;
    const store = Object.create(run.store) as typeof run.store;
    store.loadJournal = async (id) => ({
      entries: [],
      warnings: [{ code: 'PERSISTENCE_VERSION', message: `${id}'s journal has schema version 9` }],
    });
    const relay = await createRelay({ store: { store, name: 'the store' } });
    cleanup.push(() => relay.close());
    const answer = async (path: string) => {
      const response = await fetch(`${relay.url}${path}`);
      return { status: response.status, body: (await response.json()) as RelayStoreError };
    };
    expect(await answer('/store/tasks/t_nope/replay')).toEqual({
      status: 404,
      body: { error: 'No task "t_nope" in the store the store.' },
    });
    expect(await answer('/store/tasks/%E0%A4%A/replay')).toEqual({
      status: 400,
      body: { error: 'Not a task id: %E0%A4%A' },
    });
    expect(await answer(`/store/tasks/${taskId}/replay`)).toEqual({
      status: 422,
      body: { error: `Cannot replay task ${taskId}: ${taskId}'s journal has schema version 9` },
    });
  });

  it('refuses a request for another host name (a DNS-rebinding page), and a relay without a store has no store routes', async () => {
    const run = await scenarios.goal!();
    const relay = await createRelay({
      header: createRecorder().header,
      store: { store: run.store, name: 's' },
    });
    cleanup.push(() => relay.close());
    const port = new URL(relay.url).port;
    const evil = await getWithHost(`${relay.url}/store/tasks`, `evil.example:${port}`);
    expect(evil.status).toBe(403);
    expect(evil.body).toBe(`This relay answers only at 127.0.0.1:${port} or localhost:${port}.\n`);
    expect((await getWithHost(`${relay.url}/store/tasks`, `localhost:${port}`)).status).toBe(200);
    expect((await getWithHost(`${relay.url}/timeline.jsonl`, `evil.example:${port}`)).status).toBe(403);
    const bare = await relayWith();
    expect((await fetch(`${bare.url}/store/tasks`)).status).toBe(404);
  });
});
