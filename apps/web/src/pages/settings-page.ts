import { h } from '../app/dom.js';
import { type ModelSettings, saveSettings } from '../app/settings.js';

/**
 * Model settings: the offline demo, or Claude with a key typed here (kept in this tab's
 * sessionStorage only, sent straight to the API from the page) or through the app's own proxy.
 */
export function mountSettingsPage(element: HTMLElement, settings: ModelSettings): () => void {
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
          saveSettings({
            mode: mode.value === 'claude' ? 'claude' : 'demo',
            ...(key.value ? { apiKey: key.value } : {}),
            ...(baseURL.value ? { baseURL: baseURL.value } : {}),
          });
          location.hash = '#/';
          location.reload();
        },
      },
      h('label', {}, 'Model ', mode),
      h('label', {}, 'Anthropic API key ', key),
      h('label', {}, 'Base URL (your proxy) ', baseURL),
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
