import { isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { lastUserText, systemOf, textStep, toolNamesOf, toolResultsOf, toolStep } from './script-helpers.js';
import type { FakeHandler, FakeStep, RecordedRequest } from './types.js';

/** The helpers a handler file gets as its second argument (it need not import anything). */
export const HANDLER_HELPERS = {
  textStep,
  toolStep,
  lastUserText,
  systemOf,
  toolNamesOf,
  toolResultsOf,
} as const;

/** The signature of a handler file's default export. */
export type FakeHandlerModule = (
  request: RecordedRequest,
  helpers: typeof HANDLER_HELPERS,
) => FakeStep | Promise<FakeStep>;

/**
 * Loads a handler from a module file (`--handler file.mjs`): its default export (or an export
 * named `handler`) is called with each request and {@link HANDLER_HELPERS}, and answers with a
 * step, so replies can depend on the request's content (parallel and background sub-agents whose
 * requests arrive in any order). Throws an Error naming the file when it has no such function.
 */
export async function loadHandlerFile(file: string, cwd = process.cwd()): Promise<FakeHandler> {
  const path = isAbsolute(file) ? file : resolve(cwd, file);
  let module: { default?: unknown; handler?: unknown };
  try {
    module = (await import(pathToFileURL(path).href)) as typeof module;
  } catch (error) {
    throw new Error(
      `${path}: cannot load the handler (${error instanceof Error ? error.message : String(error)})`,
    );
  }
  const handler = typeof module.default === 'function' ? module.default : module.handler;
  if (typeof handler !== 'function')
    throw new Error(`${path}: expected a default export (request, helpers) => step, found none`);
  const run = handler as FakeHandlerModule;
  return (request) => run(request, HANDLER_HELPERS);
}
