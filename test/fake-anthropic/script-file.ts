import type { FakeContentBlock, FakeStep } from './types.js';

/**
 * A script for the fake as a JSON file (for `main.ts` and other processes): `steps` are answered
 * in order, then every further request gets `fallback` (or a 400 naming the missing step).
 */
export interface FakeScriptFile {
  steps: FakeStep[];
  fallback?: FakeStep;
}

const FAULTS = new Set([
  'rate_limited',
  'overloaded',
  'server_error',
  'http_error',
  'drop',
  'stream_error',
  'hang',
]);
const BLOCK_TYPES = new Set(['text', 'thinking', 'redacted_thinking', 'tool_use']);

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function checkBlock(block: unknown, where: string): FakeContentBlock {
  if (!isObject(block) || typeof block.type !== 'string' || !BLOCK_TYPES.has(block.type))
    throw new Error(`${where}: expected a content block of type ${[...BLOCK_TYPES].join(', ')}`);
  if (block.type === 'text' && typeof block.text !== 'string')
    throw new Error(`${where}.text: expected a string`);
  if (block.type === 'thinking' && typeof block.thinking !== 'string')
    throw new Error(`${where}.thinking: expected a string`);
  if (block.type === 'redacted_thinking' && typeof block.data !== 'string')
    throw new Error(`${where}.data: expected a string`);
  if (block.type === 'tool_use' && (typeof block.name !== 'string' || !isObject(block.input)))
    throw new Error(`${where}: a tool_use block needs a string "name" and an object "input"`);
  return block as unknown as FakeContentBlock;
}

function checkStep(step: unknown, where: string): FakeStep {
  if (!isObject(step)) throw new Error(`${where}: expected an object (a reply with "content" or a "fault")`);
  if ('fault' in step) {
    if (typeof step.fault !== 'string' || !FAULTS.has(step.fault))
      throw new Error(
        `${where}.fault: expected one of ${[...FAULTS].join(', ')}, got ${JSON.stringify(step.fault)}`,
      );
    return step as unknown as FakeStep;
  }
  if (!Array.isArray(step.content)) throw new Error(`${where}.content: expected a list of content blocks`);
  step.content.forEach((block, i) => {
    checkBlock(block, `${where}.content[${i}]`);
  });
  if ('gate' in step) throw new Error(`${where}.gate: gates cannot be scripted in a file`);
  return step as unknown as FakeStep;
}

/** Checks a parsed script file, naming the first bad field (e.g. `steps[2].content[0].text`). */
export function parseScriptFile(value: unknown, source = 'script'): FakeScriptFile {
  if (!isObject(value)) throw new Error(`${source}: expected a JSON object with "steps"`);
  if (!Array.isArray(value.steps)) throw new Error(`${source}.steps: expected a list of steps`);
  const script: FakeScriptFile = {
    steps: value.steps.map((step, i) => checkStep(step, `${source}.steps[${i}]`)),
  };
  if (value.fallback !== undefined) script.fallback = checkStep(value.fallback, `${source}.fallback`);
  return script;
}
