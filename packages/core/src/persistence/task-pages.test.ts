import { describe, expect, it } from 'vitest';
import { ValidationError } from '../errors.js';
import { checkQuery, DEFAULT_PAGE_SIZE, encodeCursor, MAX_PAGE_SIZE } from './task-pages.js';

describe('checkQuery', () => {
  it('returns the page size of a good query: its limit, the default without one, capped at the largest page', () => {
    expect(checkQuery({})).toBe(DEFAULT_PAGE_SIZE);
    expect(checkQuery({ limit: 7, minDepth: 1, cursor: encodeCursor({ createdAt: 5, taskId: 't' }) })).toBe(
      7,
    );
    expect(checkQuery({ limit: MAX_PAGE_SIZE + 1 })).toBe(MAX_PAGE_SIZE);
  });

  it('throws a ValidationError naming the field for a bad limit, minDepth or cursor', () => {
    const issuesOf = (query: Parameters<typeof checkQuery>[0]) => {
      try {
        checkQuery(query);
      } catch (error) {
        expect(error).toBeInstanceOf(ValidationError);
        return (error as ValidationError).issues;
      }
      throw new Error(`checkQuery accepted ${JSON.stringify(query)}`);
    };
    expect(issuesOf({ limit: 0 })).toEqual(['limit']);
    expect(issuesOf({ limit: 2.5 })).toEqual(['limit']);
    expect(issuesOf({ minDepth: -1 })).toEqual(['minDepth']);
    expect(issuesOf({ cursor: 'not a cursor' })).toEqual(['cursor']);
  });
});
