import { describe, expect, it } from 'vitest';
import { linkedBaseURL, withoutBaseURL } from '../src/app/settings.js';

const page = 'https://troupe.example/app/';

describe('linkedBaseURL', () => {
  it('offers an http(s) base URL from the address only when it differs from the saved one', () => {
    expect(linkedBaseURL(`${page}?baseURL=http%3A%2F%2Felsewhere%3A8080#/`, { mode: 'claude' })).toEqual({
      kind: 'offer',
      url: 'http://elsewhere:8080',
    });
    expect(
      linkedBaseURL(`${page}?baseURL=https%3A%2F%2Fproxy`, { mode: 'claude', baseURL: 'https://proxy' }),
    ).toBeUndefined();
    expect(linkedBaseURL(`${page}?mode=claude#/`, { mode: 'claude' })).toBeUndefined();
    expect(linkedBaseURL(`${page}?baseURL=`, { mode: 'claude' })).toBeUndefined();
  });

  it('refuses anything that is not an absolute http(s) URL', () => {
    for (const text of ['javascript:alert(1)', 'file:///etc/passwd', '/relative', 'not a url', 'data:,x']) {
      expect(linkedBaseURL(`${page}?baseURL=${encodeURIComponent(text)}`, { mode: 'demo' })).toEqual({
        kind: 'invalid',
        text,
      });
    }
  });
});

describe('withoutBaseURL', () => {
  it('drops the parameter and keeps the rest of the query and the hash', () => {
    expect(withoutBaseURL(`${page}?mode=claude&baseURL=http%3A%2F%2Fx&pace=2#/tasks/t1`)).toBe(
      `${page}?mode=claude&pace=2#/tasks/t1`,
    );
    expect(withoutBaseURL(`${page}?baseURL=http%3A%2F%2Fx#/`)).toBe(`${page}#/`);
  });
});
