import { describe, expect, it } from 'vitest';
import { createRedactor, REDACTED } from './redactor.js';

// The test runs in Node; core compiles without Node's types.
declare const Buffer: { from(text: string): { toString(encoding: 'base64' | 'base64url' | 'hex'): string } };
declare const performance: { now(): number };

const KEY = 'sk-ant-api03-abcdefghijklmnopqrstuvwxyz012345';
const base64 = (text: string) => Buffer.from(text).toString('base64');

describe('createRedactor', () => {
  it('redacts the password of any scheme://user:password@ URL and keeps the rest', () => {
    const { redactString } = createRedactor();
    expect(redactString('postgres://app:Sup3rS3cret@db:5432/app')).toBe(
      `postgres://app:${REDACTED}@db:5432/app`,
    );
    expect(redactString('DATABASE_URL="mysql://root:p@ss:w@rd@mysql/db" and more')).toBe(
      `DATABASE_URL="mysql://root:${REDACTED}@mysql/db" and more`,
    );
    expect(redactString('redis://:cachePw@cache:6379')).toBe(`redis://:${REDACTED}@cache:6379`);
    expect(redactString('see mongodb+srv://admin:m0ngo@c0.example.net/db?w=1.')).toBe(
      `see mongodb+srv://admin:${REDACTED}@c0.example.net/db?w=1.`,
    );
  });

  it('redacts a known secret base64- and base64url-encoded at any alignment, URL-encoded and in hex', () => {
    const secret = 'pat/with+special=chars&more 42';
    const { redactString } = createRedactor({ secrets: [KEY, secret] });
    for (const prefix of ['', 'a', 'ab', 'user:']) {
      for (const encoded of [base64(prefix + KEY), Buffer.from(prefix + secret).toString('base64url')]) {
        const out = redactString(`Authorization: Basic ${encoded}`);
        expect(out).toContain(REDACTED);
        // At most a character or two of the secret's encoding stays at each edge.
        expect(out.replace(REDACTED, '').length).toBeLessThan(`Authorization: Basic ${encoded}`.length - 30);
      }
    }
    for (const encoded of [
      encodeURIComponent(secret),
      Buffer.from(KEY).toString('hex'),
      Buffer.from(KEY).toString('hex').toUpperCase(),
    ]) {
      expect(redactString(`x ${encoded} y`)).toBe(`x ${REDACTED} y`);
    }
  });

  it('encodes a non-ASCII secret as UTF-8 bytes', () => {
    const secret = 'pässwörd-🔑-välue';
    const { redactString } = createRedactor({ secrets: [secret] });
    for (const encoding of ['base64', 'base64url', 'hex'] as const) {
      const encoded = Buffer.from(secret).toString(encoding).replace(/=+$/, '');
      expect(redactString(`[${encoded}]`)).toBe(`[${REDACTED}]`);
    }
    expect(redactString(encodeURIComponent(secret))).toBe(REDACTED);
  });

  it('redacts secret assignments as env and .env files print them', () => {
    const { redactString } = createRedactor();
    expect(
      redactString('AWS_SECRET_ACCESS_KEY=abcd1234efgh\nGH_TOKEN="tok_value_1"\npassword: hunter22'),
    ).toBe(`AWS_SECRET_ACCESS_KEY=${REDACTED}\nGH_TOKEN="${REDACTED}"\npassword: ${REDACTED}`);
  });

  it('stays linear on hostile text (a tool output of 160 KB made to backtrack)', () => {
    const { redactString } = createRedactor({ secrets: [KEY] });
    for (const text of [
      'PASSWORD'.repeat(20_000),
      `${'PASSWORD_'.repeat(18_000)}= value`,
      `://a:${'b'.repeat(160_000)}`,
      'password '.repeat(18_000),
      '-----BEGIN PRIVATE KEY-----'.repeat(6_000),
      'Bearer '.repeat(23_000),
    ]) {
      const start = performance.now();
      redactString(text);
      expect(performance.now() - start, text.slice(0, 20)).toBeLessThan(1_000);
    }
  });

  it('leaves ordinary text alone', () => {
    const { redactString } = createRedactor({ secrets: [KEY, 'short'] });
    for (const text of [
      'done (2 tools, 695ms, 371 tokens, 3 turns)',
      'MAX_TOKENS=4096 input_tokens: 1234',
      'http://127.0.0.1:8080/path@v2 and mail alice@example.com',
      'a short word',
      'https://user@github.com/org/repo.git',
    ]) {
      expect(redactString(text)).toBe(text);
    }
  });

  it('recognises secret property names and takes another replacement', () => {
    const redactor = createRedactor({ secrets: ['abcdef'], minimumSecretLength: 6, replacement: '***' });
    expect(redactor.isSecretKey('X-Api-Key')).toBe(true);
    expect(redactor.isSecretKey('client_secret')).toBe(true);
    expect(redactor.isSecretKey('tokens')).toBe(false);
    expect(redactor.redactString('value abcdef')).toBe('value ***');
  });
});
