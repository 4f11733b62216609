/** What runs a host's hooks: loaded the first time a hook is asked (a host with none never loads it). */
export type HookRunner = typeof import('./hook-runner.js');

let runner: Promise<HookRunner> | undefined;

/**
 * The hook runner, imported on first use: a host without hooks (a browser app) does not carry the
 * code that asks them and reads their answers in the JavaScript it loads at start.
 */
export function loadHookRunner(): Promise<HookRunner> {
  runner ??= import('./hook-runner.js');
  return runner;
}
