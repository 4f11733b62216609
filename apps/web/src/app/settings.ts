/** Which model the app talks to. */
export type ModelMode = 'demo' | 'claude';

/** The app's model settings. The key lives only in this tab's sessionStorage, never in IndexedDB. */
export interface ModelSettings {
  mode: ModelMode;
  /** Typed by the user; kept in sessionStorage (gone when the tab closes). */
  apiKey?: string;
  /**
   * The app's own proxy (or any Anthropic-compatible endpoint), as the user saved it on the
   * settings page or confirmed it from a link; not a secret, kept in localStorage. A `?baseURL=`
   * in the page's address is never used until confirmed (see {@link linkedBaseURL}).
   */
  baseURL?: string;
}

/** A base URL named by the page's address (`?baseURL=`) that differs from the saved one. */
export type LinkedBaseURL =
  /** An http(s) URL, to be offered to the user: the key goes there only once they confirm. */
  | { kind: 'offer'; url: string }
  /** Anything else (`javascript:`, a relative path, garbage): refused outright. */
  | { kind: 'invalid'; text: string };

const KEY = 'troupe.apiKey';
const BASE_URL = 'troupe.baseURL';
const MODE = 'troupe.mode';
const BASE_URL_PARAMETER = 'baseURL';

/**
 * Reads the settings. `?mode=` in the page URL wins (used by tests and links; it does not change
 * where a key goes); the base URL is only ever the saved one: a link cannot redirect the key.
 */
export function readSettings(): ModelSettings {
  const query = new URLSearchParams(location.search);
  const mode = (query.get('mode') ?? localStorage.getItem(MODE) ?? 'demo') === 'claude' ? 'claude' : 'demo';
  const apiKey = sessionStorage.getItem(KEY) ?? undefined;
  const baseURL = localStorage.getItem(BASE_URL) ?? undefined;
  return { mode, ...(apiKey ? { apiKey } : {}), ...(baseURL ? { baseURL } : {}) };
}

/**
 * The `?baseURL=` of `href` when it differs from the saved `settings.baseURL`: an http(s) URL to
 * offer, or an invalid value to refuse. Undefined when the address names none (or the saved one).
 */
export function linkedBaseURL(href: string, settings: ModelSettings): LinkedBaseURL | undefined {
  const text = new URL(href).searchParams.get(BASE_URL_PARAMETER);
  if (text === null || text === '' || text === settings.baseURL) return undefined;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { kind: 'invalid', text };
  }
  return url.protocol === 'http:' || url.protocol === 'https:'
    ? { kind: 'offer', url: text }
    : { kind: 'invalid', text };
}

/** `href` without its `?baseURL=` parameter (the rest of the query and the hash kept). */
export function withoutBaseURL(href: string): string {
  const url = new URL(href);
  url.searchParams.delete(BASE_URL_PARAMETER);
  return url.href;
}

/** Saves the settings: the key to sessionStorage only. */
export function saveSettings(settings: ModelSettings): void {
  localStorage.setItem(MODE, settings.mode);
  if (settings.apiKey) sessionStorage.setItem(KEY, settings.apiKey);
  else sessionStorage.removeItem(KEY);
  if (settings.baseURL) localStorage.setItem(BASE_URL, settings.baseURL);
  else localStorage.removeItem(BASE_URL);
}
