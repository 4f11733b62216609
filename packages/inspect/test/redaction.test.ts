// A timeline recorded from a live run whose tool inputs, tool results, prompt and answer carry
// secrets in the forms they leak in: connection strings with passwords, the API key base64- or
// hex-encoded inside a header, URL-encoded in a query, an env dump. None may be in the timeline.
import { createMemoryStore, createRuntime, defineTool } from '@troupe/core';
import { manualClock, scriptedModel, textReply, toolReply, turnOf } from '@troupe/core/testing';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { createRecorder } from '../src/timeline/recorder.js';
import { formatTimeline } from '../src/timeline/timeline-jsonl.js';
import { API_KEY } from './fixtures.js';

/** A second known secret (say `GH_PAT`) with characters that URL-encoding changes. */
const TOKEN = 'pat/with+special=chars&more 42';

const base64 = (text: string) => Buffer.from(text).toString('base64');
const base64url = (text: string) => Buffer.from(text).toString('base64url');
const hex = (text: string) => Buffer.from(text).toString('hex');

/** Passwords troupe is not told about: found by the shape of the URL or assignment that holds them. */
const PASSWORDS = [
  'Sup3rS3cretPw',
  'm0ngoPass99',
  'r3disPassword',
  'rabbitPw42',
  'p@ssw0rd!x',
  'awsSecretValue123',
];

const leaks = {
  databaseUrl: 'postgres://app:Sup3rS3cretPw@db.internal:5432/app',
  mongo: 'mongodb+srv://admin:m0ngoPass99@cluster0.example.net/db?retryWrites=true',
  redis: 'redis://:r3disPassword@cache:6379',
  authorization: `Basic ${base64(`user:${API_KEY}`)}`,
  query: `https://api.example.com/v1?key=${encodeURIComponent(TOKEN)}&sig=${base64url(API_KEY)}`,
};

const output = [
  `DATABASE_URL=${leaks.databaseUrl}`,
  'BROKER=amqp://guest:rabbitPw42@mq:5672/',
  'LEGACY=mysql://root:p@ssw0rd!x@mysql:3306/db',
  'AWS_SECRET_ACCESS_KEY=awsSecretValue123',
  `key as base64: ${base64(API_KEY)}`,
  `key as base64 (no padding): ${base64(API_KEY).replace(/=+$/, '')}`,
  `key as hex: ${hex(API_KEY)} ${hex(API_KEY).toUpperCase()}`,
  `token as base64url: ${base64url(`x${TOKEN}`)}`,
  `token URL-encoded: ${encodeURIComponent(TOKEN)}`,
].join('\n');

function forms(secret: string): string[] {
  return [
    secret,
    base64(secret).replace(/=+$/, ''),
    base64url(secret),
    hex(secret),
    hex(secret).toUpperCase(),
    encodeURIComponent(secret),
  ];
}

describe('redaction in a recorded timeline', () => {
  it('contains no connection-string password and no known secret in any encoding', async () => {
    const clock = manualClock();
    const recorder = createRecorder({ now: clock.now, secrets: [API_KEY, TOKEN] });
    const probe = defineTool({
      name: 'probe',
      description: 'Probes a service',
      access: 'read',
      input: v.object({ url: v.string(), headers: v.record(v.string(), v.string()), query: v.string() }),
      execute: () => output,
    });
    const runtime = createRuntime({
      model: scriptedModel((request) =>
        turnOf(request) === 1
          ? toolReply('probe', {
              url: leaks.databaseUrl,
              headers: { 'X-Auth': leaks.authorization },
              query: leaks.query,
            })
          : textReply(`Connected with ${leaks.mongo}; the cache is ${leaks.redis}; key hex ${hex(API_KEY)}.`),
      ),
      tools: [probe],
      agents: [{ name: 'explore', description: 'Reads.', systemPrompt: 'You explore.', tools: ['probe'] }],
      clock,
      store: createMemoryStore(),
      approval: 'auto',
      inspect: recorder.inspect,
    });
    const result = await runtime.spawn({
      agent: 'explore',
      prompt: `Check ${leaks.databaseUrl} with header ${leaks.authorization}`,
      sessionKey: 's1',
    }).result;
    await runtime.shutdown({ keepTasks: true });
    expect(result.status, JSON.stringify(result)).toBe('completed');

    const text = formatTimeline(recorder.timeline());
    // The values really went through the run (so the test can fail): their hosts are still there.
    expect(text).toContain('db.internal:5432/app');
    expect(text).toContain('cluster0.example.net/db');
    for (const password of PASSWORDS) expect(text, password).not.toContain(password);
    for (const secret of [API_KEY, TOKEN]) {
      for (const form of forms(secret)) expect(text, form).not.toContain(form);
    }
    expect(text).toContain('[redacted]');
    // Inside a longer encoded text (Basic auth: `user:` + key), at any byte alignment.
    for (const prefix of ['', 'u', 'us', 'user:']) {
      const encoded = base64(`${prefix}${API_KEY}`);
      expect(text, prefix).not.toContain(encoded.slice(Math.ceil((prefix.length * 4) / 3) + 1, -3));
    }
  });
});
