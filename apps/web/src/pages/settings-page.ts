import { h } from '../app/dom.js';
import { type ModelSettings, saveSettings } from '../app/settings.js';

/**
 * Why settings cannot work, or undefined when they can: Claude needs a key or a proxy that adds
 * one; a base URL must be an http(s) URL.
 */
export function settingsProblem(mode: string, apiKey: string, baseURL: string): string | undefined {
  if (baseURL.trim()) {
    let url: URL | undefined;
    try {
      url = new URL(baseURL.trim());
    } catch {
      url = undefined;
    }
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:'))
      return `Not saved: the base URL "${baseURL}" is not an http(s) URL (for example https://my-proxy.example/anthropic).`;
  }
  if (mode === 'claude' && !apiKey.trim() && !baseURL.trim())
    return 'Not saved: Claude needs an Anthropic API key, or the base URL of a proxy of your own that adds the key. Type one of them, or keep the offline demo.';
  return undefined;
}

/**
 * Model settings: the offline demo, or Claude with a key typed here (kept in this tab's
 * sessionStorage only, sent straight to the API from the page) or through the app's own proxy.
 */
export function mountSettingsPage(element: HTMLElement, settings: ModelSettings): () => void {
  const error = h('p', { class: 'form-error', role: 'alert', hidden: true });
  const mode = h(
    'select',
    { name: 'mode' },
    h('option', { value: 'demo', selected: settings.mode === 'demo' }, 'Offline demo (scripted model)'),
    h('option', { value: 'claude', selected: settings.mode === 'claude' }, 'Claude'),
  );
  const key = h('input', {
    name: 'apiKey',
    type: 'password',
    autocomplete: 'off',
    value: settings.apiKey ?? '',
  });
  const baseURL = h('input', {
    name: 'baseURL',
    placeholder: 'https://api.anthropic.com',
    value: settings.baseURL ?? '',
  });
  element.append(
    h('h2', {}, 'Model'),
    h(
      'form',
      {
        class: 'settings',
        onsubmit: (event: Event) => {
          event.preventDefault();
          const problem = settingsProblem(mode.value, key.value, baseURL.value);
          if (problem) {
            error.textContent = problem;
            error.hidden = false;
            return;
          }
          saveSettings({
            mode: mode.value === 'claude' ? 'claude' : 'demo',
            ...(key.value.trim() ? { apiKey: key.value.trim() } : {}),
            ...(baseURL.value.trim() ? { baseURL: baseURL.value.trim() } : {}),
          });
          location.hash = '#/';
          location.reload();
        },
      },
      h('label', {}, 'Model ', mode),
      h('label', {}, 'Anthropic API key ', key),
      h('label', {}, 'Base URL (your proxy) ', baseURL),
      error,
      h('button', { type: 'submit' }, 'Save and reload'),
    ),
    h(
      'p',
      { class: 'muted' },
      'A key typed here stays in this tab (sessionStorage) and is sent from the page straight to the API: any script on this page could read it. ' +
        'Prefer a proxy of your own that adds the key server-side (leave the key empty and set its URL).',
    ),
  );
  return () => {};
}
