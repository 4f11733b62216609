/**
 * The `_version` `@statelyai/inspect` 0.7 stamps on its wire events. A constant rather than a
 * probe of the package, so the recorder does not load the Stately client in a browser bundle; a
 * test checks it against the installed package.
 */
export const STATELY_WIRE_VERSION = '0.7.2';
