import { textOf } from '../model/content.js';
import type { Message } from '../model/types.js';
import type { SubagentOutput } from './subagent-context.js';

/**
 * What a main-agent run answers: a run that did not complete keeps as output only text it
 * produced itself; the best answer of the conversation before it (an earlier reply, an earlier
 * `(No reply.)`) is not this run's answer.
 */
export function ownOutput(output: SubagentOutput, produced: readonly Message[]): SubagentOutput {
  if (output.status === 'completed') return output;
  let text = '';
  for (const message of produced) {
    if (message.role !== 'assistant') continue;
    const said = textOf(message.content);
    if (said) text = said;
  }
  return text === output.output ? output : { ...output, output: text };
}

/** The text of a run's reply: its output, as JSON when it is not a string. */
export function replyText(output: SubagentOutput): string {
  return typeof output.output === 'string' ? output.output : JSON.stringify(output.output);
}

/**
 * The conversation to keep after a run: unanswered tool calls are answered with an error so the
 * next request is valid, saying why they were not run: the run was cancelled, or it reached its
 * limit and the calls were made on its grace turn (which runs no tools). A run that ended on a user
 * message (it failed before answering) gets `(No reply.)`.
 */
export function closeConversation(messages: readonly Message[], output: SubagentOutput): Message[] {
  const out = [...messages];
  const last = out[out.length - 1];
  if (last?.role === 'assistant' && typeof last.content !== 'string') {
    const uses = last.content.filter((block) => block.type === 'tool_use');
    if (uses.length) {
      const limit =
        output.terminateReason === 'MAX_TURNS' || output.terminateReason === 'TIMEOUT'
          ? output.terminateReason
          : undefined;
      out.push({
        role: 'user',
        content: uses.map((use) => ({
          type: 'tool_result' as const,
          tool_use_id: use.id,
          content: limit
            ? `Not run: the run reached its limit (${limit}), and tool calls on its final turn are not run.`
            : 'Interrupted: the run was cancelled before this call finished.',
          is_error: true,
        })),
      });
      out.push({
        role: 'assistant',
        content: [{ type: 'text', text: limit ? '(Stopped at the limit.)' : '(Interrupted.)' }],
      });
    }
  } else if (last?.role === 'user') {
    out.push({ role: 'assistant', content: [{ type: 'text', text: '(No reply.)' }] });
  }
  return out;
}
