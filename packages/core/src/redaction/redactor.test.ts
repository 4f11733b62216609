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

  it('redacts each PEM private key block whole, and leaves an unclosed header as it is', () => {
    const { redactString } = createRedactor();
    const rsa = '-----BEGIN RSA PRIVATE KEY-----\nMIIEow\nIBAAK\n-----END RSA PRIVATE KEY-----';
    const plain = '-----BEGIN PRIVATE KEY-----\nMC4CAQ\n-----END PRIVATE KEY-----';
    expect(redactString(`key:\n${rsa}\nthen ${plain}.`)).toBe(`key:\n${REDACTED}\nthen ${REDACTED}.`);
    expect(redactString(`-----BEGIN PRIVATE KEY-----\nunfinished ${plain}`)).toBe(REDACTED);
    expect(redactString('-----BEGIN PRIVATE KEY----- and no end')).toBe(
      '-----BEGIN PRIVATE KEY----- and no end',
    );
    expect(redactString('-----BEGIN PUBLIC KEY-----\nabc\n-----END PUBLIC KEY-----')).toContain('abc');
  });

  it('redacts secret assignments as env and .env files print them', () => {
    const { redactString } = createRedactor();
    expect(
      redactString('AWS_SECRET_ACCESS_KEY=abcd1234efgh\nGH_TOKEN="tok_value_1"\npassword: hunter22'),
    ).toBe(`AWS_SECRET_ACCESS_KEY=${REDACTED}\nGH_TOKEN="${REDACTED}"\npassword: ${REDACTED}`);
  });

  it('stays linear on hostile text (tool output made to backtrack: 4x the text costs far less than 16x the time)', () => {
    const { redactString } = createRedactor({ secrets: [KEY] });
    // The fastest of a few runs, so a busy machine does not decide the outcome.
    const fastest = (text: string) => {
      let best = Number.POSITIVE_INFINITY;
      for (let run = 0; run < 5; run += 1) {
        const start = performance.now();
        redactString(text);
        best = Math.min(best, performance.now() - start);
      }
      return best;
    };
    for (const [unit, count] of [
      ['PASSWORD', 5_000],
      ['PASSWORD_', 4_500],
      ['b', 40_000],
      ['password ', 4_500],
      ['-----BEGIN PRIVATE KEY-----', 1_500],
      ['Bearer ', 5_750],
    ] as const) {
      const hostile = (times: number) =>
        unit === 'b'
          ? `://a:${unit.repeat(times)}`
          : unit === 'PASSWORD_'
            ? `${unit.repeat(times)}= value`
            : unit.repeat(times);
      const small = fastest(hostile(count));
      const large = fastest(hostile(count * 4));
      // Linear work grows about 4x; a backtracking (quadratic) pattern grows 16x. 20 ms absorbs a busy machine.
      expect(
        large,
        `${unit}: ${small.toFixed(2)} ms for ${count}, ${large.toFixed(2)} ms for ${count * 4}`,
      ).toBeLessThan(small * 8 + 2);
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
