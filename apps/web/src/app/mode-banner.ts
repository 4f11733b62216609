import type { ModelSettings } from './settings.js';

/**
 * Says in the header which model the app talks to: "Offline demo" (a scripted model, no network)
 * or "Claude", and, for Claude with neither a key nor a proxy, that it cannot work yet.
 */
export function showModeBanner(settings: ModelSettings): void {
  const header = document.querySelector('header.top');
  if (!header) return;
  const badge = document.createElement('a');
  badge.href = '#/settings';
  badge.className = `mode-badge mode-${settings.mode}`;
  badge.dataset.mode = settings.mode;
  badge.textContent =
    settings.mode === 'demo'
      ? 'Offline demo: a scripted model, not Claude'
      : settings.apiKey || settings.baseURL
        ? `Claude${settings.baseURL ? ` via ${settings.baseURL}` : ''}`
        : 'Claude: no API key or proxy set';
  if (settings.mode === 'claude' && !settings.apiKey && !settings.baseURL)
    badge.classList.add('mode-problem');
  header.append(badge);
}
