/** Which model the app talks to. */
export type ModelMode = 'demo' | 'claude';

/** The app's model settings. The key lives only in this tab's sessionStorage, never in IndexedDB. */
export interface ModelSettings {
  mode: ModelMode;
  /** Typed by the user; kept in sessionStorage (gone when the tab closes). */
  apiKey?: string;
  /** The app's own proxy (or any Anthropic-compatible endpoint); not a secret, kept in localStorage. */
  baseURL?: string;
}

const KEY = 'troupe.apiKey';
const BASE_URL = 'troupe.baseURL';
const MODE = 'troupe.mode';

/** Reads the settings; `?mode=`, `?baseURL=` in the page URL win (used by tests and links). */
export function readSettings(): ModelSettings {
  const query = new URLSearchParams(location.search);
  const mode = (query.get('mode') ?? localStorage.getItem(MODE) ?? 'demo') === 'claude' ? 'claude' : 'demo';
  const apiKey = sessionStorage.getItem(KEY) ?? undefined;
  const baseURL = query.get('baseURL') ?? localStorage.getItem(BASE_URL) ?? undefined;
  return { mode, ...(apiKey ? { apiKey } : {}), ...(baseURL ? { baseURL } : {}) };
}

/** Saves the settings: the key to sessionStorage only. */
export function saveSettings(settings: ModelSettings): void {
  localStorage.setItem(MODE, settings.mode);
  if (settings.apiKey) sessionStorage.setItem(KEY, settings.apiKey);
  else sessionStorage.removeItem(KEY);
  if (settings.baseURL) localStorage.setItem(BASE_URL, settings.baseURL);
  else localStorage.removeItem(BASE_URL);
}
