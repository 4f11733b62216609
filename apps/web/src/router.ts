/** Removes what a page mounted (listeners, timers). */
export type Unmount = () => void;

/** A page: renders into `element`, gets the route's parameters, may return an unmount function. */
export type PageMount = (element: HTMLElement, params: Record<string, string>) => Unmount | undefined;

/** One hash route. `path` segments starting with `:` are parameters (`/tasks/:id`). */
export interface Route {
  path: string;
  /** Shown in the navigation bar when set. */
  label?: string;
  mount: PageMount;
}

/** Matches `hash` (`#/tasks/abc`) against `path` (`/tasks/:id`); undefined when it does not match. */
export function matchRoute(path: string, hash: string): Record<string, string> | undefined {
  const wanted = path.split('/').filter(Boolean);
  const actual = hash.replace(/^#/, '').split('?')[0]!.split('/').filter(Boolean);
  if (wanted.length !== actual.length) return undefined;
  const params: Record<string, string> = {};
  for (const [index, segment] of wanted.entries()) {
    const value = actual[index]!;
    if (segment.startsWith(':')) params[segment.slice(1)] = decodeURIComponent(value);
    else if (segment !== value) return undefined;
  }
  return params;
}

/**
 * A hash router: on every `hashchange` it unmounts the current page and mounts the first route
 * matching `location.hash` into `outlet` (the first route when none matches). Returns a stop
 * function. Hash routes need no server rewrites, so the built app is served as static files.
 */
export function startRouter(outlet: HTMLElement, nav: HTMLElement, routes: Route[]): Unmount {
  let unmount: Unmount | undefined;
  const links = routes
    .filter((route) => route.label)
    .map((route) => {
      const link = document.createElement('a');
      link.href = `#${route.path}`;
      link.textContent = route.label!;
      nav.append(link);
      return { link, route };
    });
  const render = (): void => {
    unmount?.();
    outlet.replaceChildren();
    const hash = location.hash || '#/';
    let found = routes[0]!;
    let params: Record<string, string> = {};
    for (const route of routes) {
      const match = matchRoute(route.path, hash);
      if (match) {
        found = route;
        params = match;
        break;
      }
    }
    for (const { link, route } of links) link.classList.toggle('active', route === found);
    outlet.dataset.route = found.path;
    unmount = found.mount(outlet, params) ?? undefined;
  };
  addEventListener('hashchange', render);
  render();
  return () => {
    removeEventListener('hashchange', render);
    unmount?.();
  };
}
