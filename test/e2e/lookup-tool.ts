// The `lookup` read tool the end-to-end tests give their agents.
import { defineTool, type Tool } from '@troupe/core';
import * as v from 'valibot';

/**
 * `lookup`: a read tool taking `{ key }`; it answers `answer(key)`, by default `fact about <key>`
 * (a longer answer makes the conversation long enough for the prompt cache's minimums).
 */
export function lookupTool(answer: (key: string) => string = (key) => `fact about ${key}`): Tool {
  return defineTool({
    name: 'lookup',
    description: 'Looks up a fact by key.',
    access: 'read',
    input: v.object({ key: v.string() }),
    execute: ({ key }) => answer(key),
  });
}
