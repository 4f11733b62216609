import type { TaskStore } from '@troupe/core';
import { h } from './dom.js';
import { relayStoreTasks } from './sources.js';

/** Where a picked task is stored: the app's own store, or the CLI's store behind the relay. */
export type TaskOrigin = 'app' | 'cli';

/** The CLI's store as the picker found it. */
export interface CliStoreFound {
  name: string;
  count: number;
}

/** Prefix of the CLI store's options' values. */
const CLI = 'cli:';

/**
 * The "Replay a stored task…" picker: the tasks of the app's store (IndexedDB) and, when the relay
 * that served the page has one, the tasks of the CLI's store, each group newest first. Calls
 * `onPick` with the task and its origin. `cliStore` resolves once the relay has been asked.
 */
export function taskPicker(
  store: TaskStore,
  onPick: (taskId: string, origin: TaskOrigin) => void,
): { element: HTMLSelectElement; cliStore: Promise<CliStoreFound | undefined> } {
  const element = h(
    'select',
    { 'data-testid': 'task-select', 'aria-label': 'Replay a stored task' },
    h('option', { value: '' }, 'Replay a stored task…'),
  );
  const app = h('optgroup', { label: 'In this browser' });
  const cli = h('optgroup', { label: 'CLI store' });
  element.append(app, cli);
  element.addEventListener('change', () => {
    const value = element.value;
    if (value)
      onPick(value.startsWith(CLI) ? value.slice(CLI.length) : value, value.startsWith(CLI) ? 'cli' : 'app');
  });
  void store.loadTasks().then(({ tasks }) => {
    for (const task of tasks.sort((a, b) => b.spec.createdAt - a.spec.createdAt))
      app.append(
        h(
          'option',
          { value: task.spec.taskId },
          `[${task.spec.agent}] ${task.spec.description} · ${task.status}`,
        ),
      );
  });
  const cliStore = relayStoreTasks().then((list) => {
    if (!list) {
      cli.remove();
      return undefined;
    }
    cli.label = `CLI store · ${list.store}`;
    cli.dataset.testid = 'cli-tasks';
    for (const task of list.tasks)
      cli.append(
        h(
          'option',
          { value: `${CLI}${task.taskId}` },
          `[${task.agent}] ${task.description} · ${task.status}`,
        ),
      );
    return { name: list.store, count: list.tasks.length };
  });
  return { element, cliStore };
}
