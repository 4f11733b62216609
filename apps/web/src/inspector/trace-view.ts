import type { ActorState, ContextChange, Frame, StepTrace, TraceBlock } from '@troupe/inspect';
import { contextView } from './context-view.js';
import { h, pretty } from './dom.js';
import { dollars, duration, tokens } from './format.js';

const blockView = (block: TraceBlock): HTMLElement => {
  switch (block.kind) {
    case 'text':
      return h('p', { class: 'block text' }, block.text);
    case 'thinking':
      return h('details', { class: 'block thinking' }, h('summary', {}, 'Thinking'), h('p', {}, block.text));
    case 'tool_use':
      return h(
        'div',
        { class: 'block tool-use', 'data-tool-use': block.id },
        h('div', { class: 'block-head' }, 'Tool call ', h('code', {}, block.name)),
        h('pre', { class: 'tool-input' }, pretty(block.input)),
      );
    case 'tool_result':
      return h(
        'div',
        { class: `block tool-result${block.isError ? ' error' : ''}`, 'data-tool-result': block.id },
        h('div', { class: 'block-head' }, block.isError ? 'Tool error' : 'Tool result'),
        h('pre', { class: 'tool-output' }, block.output),
      );
    default:
      return h('pre', { class: 'block other' }, pretty(block.value));
  }
};

const tokenLine = (label: string, counts: StepTrace['stepTokens'], cost: number | undefined) =>
  counts
    ? h(
        'div',
        { class: 'fact' },
        h('dt', {}, label),
        h(
          'dd',
          {},
          `${tokens(counts.input)} in · ${tokens(counts.output)} out` +
            (counts.cacheRead ? ` · ${tokens(counts.cacheRead)} cache read` : '') +
            (counts.cacheWrite ? ` · ${tokens(counts.cacheWrite)} cache write` : '') +
            (cost !== undefined ? ` · ≈ ${dollars(cost)}` : ''),
        ),
      )
    : undefined;

const fact = (label: string, value: string | undefined) =>
  value === undefined ? undefined : h('div', { class: 'fact' }, h('dt', {}, label), h('dd', {}, value));

/**
 * The trace of the selected actor at the step: for a task or main-agent run, the conversation as
 * the model saw it (system prompt collapsed, each turn, each tool call's input and each result's
 * output, thinking), the step's tokens and estimated cost, durations; for every actor, the
 * step's event payload and what changed in the context, field by field.
 */
export function traceView(
  actor: ActorState | undefined,
  frame: Frame | undefined,
  trace: StepTrace | undefined,
  changes: readonly ContextChange[],
  start?: number,
): HTMLElement {
  const panel = h(
    'section',
    { class: 'trace-view', 'aria-label': 'Trace', 'data-testid': 'trace' },
    h('h2', {}, 'Trace'),
  );
  if (!actor || !frame) {
    panel.append(h('p', { class: 'muted' }, 'Pick an actor in the run tree to see its trace.'));
    return panel;
  }
  const own = frame.sessionId === actor.sessionId;
  if (trace) {
    panel.append(
      h(
        'dl',
        { class: 'facts', 'data-testid': 'step-facts' },
        fact('Model', trace.model),
        tokenLine('This call', trace.stepTokens, trace.stepCost),
        tokenLine('Task so far', trace.totalTokens, trace.totalCost),
        fact(
          'Turns',
          trace.turns !== undefined ? `${trace.turns} · ${trace.toolCalls ?? 0} tool calls` : undefined,
        ),
        fact('Elapsed', trace.elapsedMs !== undefined ? duration(trace.elapsedMs) : undefined),
        fact('This step', trace.stepMs !== undefined ? duration(trace.stepMs) : undefined),
        fact('Tool call took', trace.toolMs !== undefined ? duration(trace.toolMs) : undefined),
      ),
    );
    const conversation = h(
      'ol',
      { class: 'conversation', 'aria-label': 'Conversation', 'data-testid': 'conversation', tabindex: 0 },
      h(
        'li',
        { class: 'message system' },
        trace.system
          ? h('details', {}, h('summary', {}, 'System prompt'), h('pre', {}, trace.system))
          : h('p', { class: 'muted' }, 'System prompt: not recorded in this timeline.'),
      ),
    );
    trace.messages.forEach((message, index) => {
      conversation.append(
        h(
          'li',
          { class: `message ${message.role}`, 'data-index': index },
          h('div', { class: 'role' }, message.role === 'assistant' ? 'Assistant' : 'User'),
          ...message.blocks.map(blockView),
        ),
      );
    });
    panel.append(h('h3', {}, `Conversation (${trace.messages.length} messages)`), conversation);
  }
  panel.append(
    h('h3', {}, 'Event'),
    own && frame.event
      ? h(
          'details',
          { class: 'event-payload', open: !trace },
          h('summary', {}, h('code', {}, frame.event.type)),
          h('pre', {}, pretty(frame.event)),
        )
      : h('p', { class: 'muted' }, own ? 'The actor started.' : 'Another actor took this step.'),
  );
  panel.append(contextView(actor, own ? changes : [], start));
  return panel;
}
