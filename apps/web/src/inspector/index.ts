import type { TaskStore } from '@troupe/core';

/** What the web app hands the inspector page. */
export interface InspectorHost {
  /** The app's task store (IndexedDB): every task's status log, journal, snapshot and result. */
  store: TaskStore;
}

/**
 * Mounts the offline inspector page into `element` (route `#/inspector`). Returns a function that
 * removes it. Placeholder: the inspector (issue #15) replaces this file's body, keeping the
 * signature.
 */
export function mountInspector(element: HTMLElement, _host: InspectorHost): () => void {
  const note = document.createElement('p');
  note.textContent = 'The offline inspector is not built yet.';
  element.append(note);
  return () => note.remove();
}
