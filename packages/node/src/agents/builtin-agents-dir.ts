import { fileURLToPath } from 'node:url';

/**
 * Absolute path of troupe's built-in agents: the repository's top-level `agents/` folder. Resolved
 * from this module's own location, four levels up, which is the same from the source
 * (`packages/node/src/agents/`) and from the build (`packages/node/dist/agents/`).
 */
export const BUILTIN_AGENTS_DIR: string = fileURLToPath(new URL('../../../../agents', import.meta.url));
