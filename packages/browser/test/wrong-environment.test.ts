// @troupe/browser imported where there is no browser (Node without IndexedDB or OPFS): the first
// use says which package to use instead, never a deep ReferenceError from a missing global.
import { describe, expect, it } from 'vitest';
import { createIndexedDbStore, openOpfsWorkspace } from '../src/index.js';

describe('@troupe/browser outside a browser', () => {
  it('createIndexedDbStore names the Node store to use instead', () => {
    expect(typeof (globalThis as { indexedDB?: unknown }).indexedDB).toBe('undefined');
    expect(() => createIndexedDbStore()).toThrow(
      /IndexedDB is not available here .*createFileStore from @troupe\/node/,
    );
  });

  it('openOpfsWorkspace names the Node tools to use instead', async () => {
    await expect(openOpfsWorkspace('w')).rejects.toThrow(
      /Origin Private File System is not available here .*createNodeTools from @troupe\/node/,
    );
  });
});
