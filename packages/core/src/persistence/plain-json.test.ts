import { describe, expect, it } from 'vitest';
import { describeThrown, toPlainJson } from './plain-json.js';

const bounds = { maxDepth: 64, maxChars: 1_000 };

describe('toPlainJson', () => {
  it('reads a value as JSON.stringify then JSON.parse would', () => {
    const shared = { x: 1 };
    const value = {
      date: new Date(0),
      gone: undefined,
      holes: Object.assign(new Array(4), { 0: 1, 3: 3 }),
      nan: Number.NaN,
      nested: { shared, again: shared },
    };
    Object.defineProperty(value, '__proto__', { value: { polluted: true }, enumerable: true });
    const plain = toPlainJson(value, 'input', bounds);
    expect(plain).toEqual({ ok: true, value: JSON.parse(JSON.stringify(value)) });
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
  });

  it.each([
    ['a BigInt', { a: [1, 2n] }, 'a BigInt at input.a[1]'],
    ['a function', { 'odd key': () => 1 }, 'a function at input["odd key"]'],
    ['a symbol', [Symbol('s')], 'a symbol at input[0]'],
    ['a toJSON that returns a BigInt', { a: { toJSON: () => 1n } }, 'a BigInt at input.a'],
  ])('refuses %s, naming where', (_label, value, reason) => {
    expect(toPlainJson(value, 'input', bounds)).toMatchObject({ ok: false, kind: 'type', reason });
  });

  it('tells a cycle from a value shared twice', () => {
    const loop: Record<string, unknown> = {};
    loop.inner = { back: loop };
    expect(toPlainJson(loop, 'input', bounds)).toMatchObject({
      ok: false,
      reason: 'a cycle at input.inner.back',
    });
  });

  it('stops at the bounds without walking the rest', () => {
    let deep: unknown = 1;
    for (let level = 0; level < 100_000; level++) deep = [deep];
    expect(toPlainJson(deep, 'input', bounds)).toMatchObject({ ok: false, kind: 'bounds' });
    expect(toPlainJson(new Array(2 ** 32 - 1), 'input', bounds)).toMatchObject({ ok: false, kind: 'bounds' });
    expect(toPlainJson('x'.repeat(2_000), 'input', bounds)).toMatchObject({ ok: false, kind: 'bounds' });
  });

  it('reports a getter or a proxy trap that throws as unreadable, naming where', () => {
    const getter = {
      a: Object.defineProperty({}, 'b', {
        enumerable: true,
        get: () => {
          throw new Error('bites');
        },
      }),
    };
    expect(toPlainJson(getter, 'result', bounds)).toMatchObject({
      ok: false,
      kind: 'unreadable',
      reason: 'result.a.b could not be read: bites',
    });
    const proxy = new Proxy(
      {},
      {
        ownKeys: () => {
          throw new Error('trap');
        },
      },
    );
    expect(toPlainJson({ p: proxy }, 'result', bounds)).toMatchObject({ ok: false, kind: 'unreadable' });
  });
});

describe('describeThrown', () => {
  it.each([
    ['an Error', new Error('boom'), 'boom'],
    ['a string', 'plain', 'plain'],
    ['undefined', undefined, 'undefined'],
    ['a BigInt', 10n, '10'],
    ['an object', { code: 7 }, '{"code":7}'],
    ['an object with no prototype', Object.create(null), 'a thrown Object with no readable message'],
    [
      'a revoked proxy',
      (() => {
        const p = Proxy.revocable({}, {});
        p.revoke();
        return p.proxy;
      })(),
      'a thrown value that cannot be read',
    ],
  ])('describes %s without throwing', (_label, thrown, expected) => {
    expect(describeThrown(thrown)).toBe(expected);
  });
});
