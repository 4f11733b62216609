import { describe, expect, it } from 'vitest';
import { matchRoute } from '../src/router.js';

describe('matchRoute', () => {
  it('matches fixed paths and the root', () => {
    expect(matchRoute('/', '#/')).toEqual({});
    expect(matchRoute('/', '')).toEqual({});
    expect(matchRoute('/agents', '#/agents')).toEqual({});
    expect(matchRoute('/agents', '#/tasks')).toBeUndefined();
  });

  it('reads parameters, decoded, and ignores a query', () => {
    expect(matchRoute('/tasks/:id', '#/tasks/t%2F1?x=1')).toEqual({ id: 't/1' });
    expect(matchRoute('/tasks/:id', '#/tasks')).toBeUndefined();
    expect(matchRoute('/tasks/:id', '#/tasks/a/b')).toBeUndefined();
  });
});
