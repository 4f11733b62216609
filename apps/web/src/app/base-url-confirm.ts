import { h } from './dom.js';
import { showNotice } from './notice.js';
import { linkedBaseURL, type ModelSettings, saveSettings, withoutBaseURL } from './settings.js';

/** Where requests go when no base URL is saved: the SDK's default. */
const ANTHROPIC_API = 'the Anthropic API (https://api.anthropic.com)';

/**
 * Handles a `?baseURL=` in the page's address. The app never uses it by itself (the runtime is
 * made with the saved base URL): an http(s) URL is shown above the page, named next to where
 * requests go now, and becomes the base URL only when the user clicks "Use …" (saved, then the
 * page reloads without the parameter); "Ignore" drops it from the address. Anything else is
 * refused with a notice.
 */
export function confirmLinkedBaseURL(settings: ModelSettings): void {
  const linked = linkedBaseURL(location.href, settings);
  if (!linked) return;
  if (linked.kind === 'invalid') {
    showNotice(`troupe ignored the base URL "${linked.text}" in this link: it is not an http(s) URL.`);
    history.replaceState(history.state, '', withoutBaseURL(location.href));
    return;
  }
  const panel = h(
    'section',
    { class: 'base-url-confirm', role: 'alertdialog', 'aria-label': 'Base URL from a link' },
    h(
      'p',
      {},
      'This link asks troupe to send its model requests, with the API key typed in this tab, to ',
      h('strong', {}, linked.url),
      ` instead of ${settings.baseURL ?? ANTHROPIC_API}. Nothing goes there unless you choose it here; use it only if it is your own proxy.`,
    ),
    h(
      'button',
      {
        type: 'button',
        onclick: () => {
          saveSettings({ ...settings, baseURL: linked.url });
          location.replace(withoutBaseURL(location.href));
        },
      },
      `Use ${linked.url}`,
    ),
    ' ',
    h(
      'button',
      {
        type: 'button',
        onclick: () => {
          history.replaceState(history.state, '', withoutBaseURL(location.href));
          panel.remove();
        },
      },
      'Ignore',
    ),
  );
  document.querySelector('header.top')?.after(panel);
}
