import type { SerializedError } from '../errors.js';
import type { ToolRegistry } from '../tools/tool-registry.js';

/**
 * A task's registry that stands for `initial` until its first `ready()` has run `load` (once), and
 * for the registry `load` made after that; later `ready()` calls return undefined, so later turns
 * pay nothing. `load` must not reject (a rejected `ready()` would be awaited again and again): it
 * answers a `failure` instead, which `failure()` gives.
 */
export function lazyRegistry(
  initial: ToolRegistry,
  load: () => Promise<{ registry: ToolRegistry; failure?: SerializedError }>,
): ToolRegistry {
  let current = initial;
  let failure: SerializedError | undefined;
  let pending: Promise<void> | undefined;
  let done = false;
  return {
    get names() {
      return current.names;
    },
    get specs() {
      return current.specs;
    },
    get: (name) => current.get(name),
    has: (name) => current.has(name),
    ready() {
      if (done) return undefined;
      pending ??= load().then((loaded) => {
        current = loaded.registry;
        failure = loaded.failure;
        done = true;
      });
      return pending;
    },
    failure: () => failure,
  };
}
