import type { ForkOptions } from '@troupe/core';
import type { ActorState, LoggedEvent, StepTrace } from '@troupe/inspect';
import { h } from './dom.js';

/** Starts a fork of a stored task (the app's `runtime.fork`); resolves with the new task's id. */
export type ForkTask = (taskId: string, options: ForkOptions) => Promise<{ id: string }>;

/** Where the forked task is: the app's own store (forked here) or the CLI's (forked with the CLI). */
export type ForkOrigin = 'app' | 'cli' | 'none';

/**
 * A task's step at a frame: how many events of its journal its actor had taken by then (its
 * `xstate.init` is not one). In a replay of the task it is the frame's number; it is the number
 * `troupe replay ID --fork-at STEP` takes.
 */
export function taskStep(events: readonly LoggedEvent[], sessionId: string, frame: number): number {
  let step = 0;
  for (const logged of events)
    if (
      logged.sessionId === sessionId &&
      logged.frame >= 0 &&
      logged.frame <= frame &&
      logged.event.type !== 'xstate.init'
    )
      step++;
  return step;
}

/** The text of the last assistant message of a trace (what `editMessage` replaces), or undefined. */
function lastAssistantText(trace: StepTrace | undefined): string | undefined {
  const message = trace?.messages.findLast((candidate) => candidate.role === 'assistant');
  if (!message) return undefined;
  return message.blocks.flatMap((block) => (block.kind === 'text' ? [block.text] : [])).join('\n');
}

/**
 * "Fork from here" for the selected task at the current step: a form to edit the system prompt
 * and the last assistant message (both prefilled), and a button that starts the fork in this app
 * (`runtime.fork`). A task of the CLI's store is forked with the CLI: the form says the command.
 * Nothing for an actor that is not a task.
 */
export function forkForm(
  actor: ActorState | undefined,
  step: number,
  trace: StepTrace | undefined,
  origin: ForkOrigin,
  fork: ForkTask | undefined,
  onForked: (text: string, kind: 'ok' | 'error') => void,
): HTMLElement | undefined {
  const taskId = (actor?.context.task as { taskId?: unknown } | undefined)?.taskId;
  if (!actor || typeof taskId !== 'string' || !Array.isArray(actor.context.messages)) return undefined;
  const ended = actor.status !== 'active' || typeof actor.value === 'string';
  const why =
    step < 1
      ? 'Step forward: a fork starts after the task has started (step 1 or later).'
      : ended
        ? 'The task has ended at this step: step back to fork it.'
        : origin === 'cli'
          ? `This task is in the CLI's store: fork it with  troupe replay ${taskId} --fork-at ${step}`
          : origin === 'none' || !fork
            ? `Only a task of this app's store is forked here (replay it from the list above); a task of the CLI's store with  troupe replay ${taskId} --fork-at ${step}`
            : undefined;
  const panel = h(
    'details',
    { class: 'fork', 'data-testid': 'fork' },
    h('summary', {}, `Fork from here (step ${step})`),
  );
  if (why) {
    panel.append(h('p', { class: 'muted', 'data-testid': 'fork-why' }, why));
    return panel;
  }
  const system = trace?.system;
  const message = lastAssistantText(trace);
  const systemInput = h('textarea', { rows: 3, 'data-testid': 'fork-system', 'aria-label': 'System prompt' });
  systemInput.value = system ?? '';
  const messageInput = h('textarea', {
    rows: 3,
    'data-testid': 'fork-message',
    'aria-label': 'Last assistant message',
  });
  messageInput.value = message ?? '';
  const start = h(
    'button',
    {
      type: 'button',
      'data-testid': 'fork-start',
      onclick: async () => {
        const options: ForkOptions = { atStep: step };
        if (system !== undefined && systemInput.value.trim() && systemInput.value !== system)
          options.agent = { systemPrompt: systemInput.value };
        if (message !== undefined && messageInput.value.trim() && messageInput.value !== message)
          options.editMessage = { text: messageInput.value };
        start.disabled = true;
        try {
          const { id } = await fork!(taskId, options);
          const edits = [
            options.agent && 'system prompt edited',
            options.editMessage && 'message edited',
          ].filter(Boolean);
          onForked(
            `Forked ${taskId} at step ${step}${edits.length ? ` (${edits.join(', ')})` : ''} → new task ${id}.`,
            'ok',
          );
        } catch (error) {
          onForked(`Cannot fork ${taskId} at step ${step}: ${(error as Error).message}`, 'error');
        } finally {
          start.disabled = false;
        }
      },
    },
    'Start the fork',
  );
  panel.append(
    h(
      'p',
      { class: 'muted' },
      `A new task starts live from this step; ${taskId} and its replay stay as they are. Same as  troupe replay ${taskId} --fork-at ${step}.`,
    ),
  );
  if (system !== undefined) panel.append(h('label', {}, 'System prompt', systemInput));
  if (message !== undefined) panel.append(h('label', {}, 'Last assistant message', messageInput));
  panel.append(start);
  return panel;
}
