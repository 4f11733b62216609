import { type GrepEngine, scanSearch } from '@troupe/core/workspace';
import { scanSource } from './node-file-system.js';

/**
 * Core's JavaScript scan (`scanSearch`) over a Node workspace whose real root is `query.root`:
 * files listed by tinyglobby, each read through a verified parent directory, the pattern in a
 * worker thread under `query.patternTimeoutMs` per block. The engine `grep` falls back to.
 */
export const scanEngine: GrepEngine = (query, sink) => scanSearch(scanSource(query.root), query, sink);
