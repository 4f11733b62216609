import { showNotice } from './app/notice.js';
import type { Unmount } from './router.js';

/**
 * Mounts a page whose code loads on demand (the agents editor with its YAML parser, the
 * inspector): `load` imports the page's module, `mount` renders it into `element` once it is
 * there, unless the user left the page meanwhile. A failed load (the app was updated on the
 * server, the network went away) is said on the page, with a reload button.
 */
export function lazyPage<TModule>(
  element: HTMLElement,
  load: () => Promise<TModule>,
  mount: (module: TModule) => Unmount | undefined,
): Unmount {
  let unmount: Unmount | undefined;
  let left = false;
  element.setAttribute('aria-busy', 'true');
  load().then(
    (module) => {
      element.removeAttribute('aria-busy');
      if (!left) unmount = mount(module) ?? undefined;
    },
    (error: Error) => {
      element.removeAttribute('aria-busy');
      if (left) return;
      showNotice(`This page could not be loaded: ${error.message}. Reload the page to try again.`);
    },
  );
  return () => {
    left = true;
    unmount?.();
  };
}
