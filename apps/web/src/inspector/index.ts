import type { TaskStore } from '@troupe/core';
import type { TimelineRecorder } from '@troupe/inspect';
import type { ForkTask } from './fork-form.js';
import './inspector.css';

/** What the web app hands the inspector page. */
export interface InspectorHost {
  /** The app's task store (IndexedDB): every task's status log, journal, snapshot and result. */
  store: TaskStore;
  /** The app's runtime recorded since the page loaded: `?source=app` follows it live. */
  recorder?: TimelineRecorder;
  /** Starts a fork of a task of `store` (the app's `runtime.fork`): "Fork from here". */
  fork?: ForkTask;
}

/**
 * Mounts the offline inspector page into `element` (route `#/inspector`). The page itself (and its
 * layout engine) loads on demand. `#/inspector?source=relay` follows the local relay that served
 * the page (`troupe --inspect`); `?task=ID` replays a stored task; `?source=store` lists the tasks
 * of the CLI's store behind that relay (`troupe replay --inspect`), `&task=ID` replays one of them; `?source=app` follows this app's own runtime live.
 * Returns a function that removes it.
 */
export function mountInspector(element: HTMLElement, host: InspectorHost): () => void {
  const query = Object.fromEntries(new URLSearchParams(location.hash.split('?')[1] ?? ''));
  let unmount: (() => void) | undefined;
  let removed = false;
  void import('./inspector-page.js').then(({ createInspectorPage }) => {
    if (!removed) unmount = createInspectorPage(element, host, query);
  });
  return () => {
    removed = true;
    unmount?.();
  };
}
