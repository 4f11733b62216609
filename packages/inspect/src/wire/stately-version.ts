import { createInspector } from '@statelyai/inspect';

let cached: string | undefined;

/** The wire-format version (`_version`) the installed `@statelyai/inspect` stamps on its events. */
export function statelyWireVersion(): string {
  if (cached === undefined) {
    let version = 'unknown';
    createInspector({
      send(event) {
        version = event._version;
      },
    }).event('probe', { type: 'probe' });
    cached = version;
  }
  return cached;
}
