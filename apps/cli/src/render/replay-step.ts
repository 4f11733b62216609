import { formatTokens, type ReplayStep, type SubagentEvent } from '@troupe/core';
import { formatStateValue } from '@troupe/inspect';
import type { Colors } from './colors.js';
import { pad, truncate } from './text.js';

function short(value: unknown, width: number): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return truncate((text ?? '').replace(/\s+/g, ' '), width);
}

function eventLabel(event: SubagentEvent): string {
  switch (event.type) {
    case 'model.responded':
    case 'model.failed':
      return `${event.type} (turn ${event.turn})`;
    default:
      return event.type;
  }
}

/** What an event carried: the model's tool calls or answer, a tool's result, a reason. */
function eventDetail(event: SubagentEvent, colors: Colors): string {
  switch (event.type) {
    case 'model.responded': {
      const calls = event.response.content.flatMap((block) =>
        block.type === 'tool_use' ? [`${block.name}(${short(block.input, 40)})`] : [],
      );
      const usage = event.response.usage;
      const tokens = colors.dim(`+${formatTokens(usage.input)} in +${formatTokens(usage.output)} out`);
      if (calls.length) return `${tokens}  ${colors.cyan('calls')} ${calls.join(', ')}`;
      const text = event.response.content
        .flatMap((block) => (block.type === 'text' ? [block.text] : []))
        .join(' ');
      return `${tokens}  ${colors.green('answer')} ${short(text, 60)}`;
    }
    case 'model.failed':
      return colors.red(short(event.error.message, 70));
    case 'tool.started':
      return colors.dim(event.toolUseId);
    case 'tool.finished': {
      const content = event.result.content;
      const text =
        typeof content === 'string'
          ? content
          : (content ?? [])
              .map((block) => (block.type === 'text' ? block.text : `[${block.type}]`))
              .join(' ');
      return `${event.result.is_error ? colors.red('error') : colors.green('result')} ${short(text, 60)}`;
    }
    case 'approval.denied':
      return event.reason ? short(event.reason, 60) : '';
    case 'cancel.requested':
      return event.reason ? short(event.reason, 60) : '';
    default:
      return '';
  }
}

/** The header line of the replay table. */
export function replayHeader(colors: Colors): string {
  return colors.dim(
    `${pad('step', 4, 'right')}  ${pad('event', 24)}  ${pad('state', 26)}  ${pad('tokens', 7, 'right')}  detail`,
  );
}

/**
 * One replayed step as a terminal line: its number, event, the state it led to, total tokens so far,
 * details. Step N is the state after journal entry `seq` N - 1 (the number `--fork-at` and the
 * inspector use).
 */
export function replayStepLine(step: ReplayStep, colors: Colors): string {
  const context = step.snapshot.context;
  const total = context.usage.input + context.usage.output;
  return `${pad(String(step.seq + 1), 4, 'right')}  ${pad(eventLabel(step.event), 24)}  ${pad(
    colors.bold(formatStateValue(step.snapshot.value)),
    26,
  )}  ${pad(formatTokens(total), 7, 'right')}  ${eventDetail(step.event, colors)}`;
}
