import { type ContentBlock, type Message, textOf } from '@troupe/core';
import { DEMO_TASKS } from './demo-tasks.js';

/** What the demo's user asks. */
export const DEMO_REQUEST =
  'Give me an overview of this project: its layout, source files, TODOs, entry points, README quality, size, and tests.';

const UPDATE = '[Background work update]';

function lastUserText(messages: readonly Message[]): string {
  const last = messages[messages.length - 1];
  if (last?.role !== 'user') return '';
  return typeof last.content === 'string' ? last.content : textOf(last.content);
}

/** A background result in one line: short ones whole, long ones cut to the first sentence; the `summary` of a JSON one. */
function gist(output: string): string {
  try {
    const value = JSON.parse(output) as { summary?: unknown };
    if (typeof value.summary === 'string') return value.summary;
  } catch {
    // Plain text.
  }
  const text = output.trim().replace(/\s+/g, ' ');
  if (text.length <= 240) return text;
  return (/^.*?[.!?](\s|$)/.exec(text)?.[0] ?? text.slice(0, 240)).trim();
}

/**
 * The scripted main agent: starts the seven tasks in the background in one reply, says so, then
 * turns each background result announced into the conversation into one line for the user, and
 * closes with a tally after the seventh.
 */
export function mainAgentTurn(messages: readonly Message[]): ContentBlock[] {
  const text = lastUserText(messages);
  if (text.startsWith(UPDATE)) {
    const description = /The background work "([^"]*)"/.exec(text)?.[1] ?? 'A task';
    const produced = /What it produced:\n([\s\S]*?)\n\nTell the user/.exec(text)?.[1];
    let line: string;
    if (/" was cancelled\./.test(text)) line = `${description}: cancelled before it finished.`;
    else if (/" stopped before finishing/.test(text))
      line = `${description}: it stopped early${produced ? ` — ${gist(produced)}` : '.'}`;
    else line = `${description}: ${produced ? gist(produced) : 'done, with nothing to report.'}`;
    const updates = messages.filter(
      (message) =>
        message.role === 'user' && typeof message.content === 'string' && message.content.startsWith(UPDATE),
    );
    if (updates.length === DEMO_TASKS.length) {
      const cancelled = updates.filter((message) =>
        / was cancelled\./.test(message.content as string),
      ).length;
      line += `\n\nThat's all ${DEMO_TASKS.length} tasks: ${DEMO_TASKS.length - cancelled} finished, ${cancelled} cancelled.`;
    }
    return [{ type: 'text', text: line }];
  }
  const last = messages[messages.length - 1];
  const answeredTools =
    last?.role === 'user' &&
    typeof last.content !== 'string' &&
    last.content.some((block) => block.type === 'tool_result');
  if (answeredTools) {
    return [
      {
        type: 'text',
        text: `I started ${DEMO_TASKS.length} sub-agents in the background; five run at a time and the rest wait in the queue. I'll summarise each result as it comes in.`,
      },
    ];
  }
  return [
    { type: 'text', text: "I'll look at this from several angles at once, with one sub-agent per question." },
    ...DEMO_TASKS.map(
      (task, index): ContentBlock => ({
        type: 'tool_use',
        id: `toolu_demo_task_${index + 1}`,
        name: 'task',
        input: {
          description: task.description,
          prompt: task.prompt,
          subagent_type: task.agent,
          run_in_background: true,
        },
      }),
    ),
  ];
}
