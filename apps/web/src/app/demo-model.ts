import {
  type ContentBlock,
  type GenerateOptions,
  type Message,
  type ModelAdapter,
  type ModelRequest,
  type ModelResponse,
  textOf,
  toolResultText,
} from '@troupe/core';
import { DEMO_TASKS, type DemoStep } from './demo-tasks.js';

/** What the demo's user asks when they press "Run the demo". */
export const DEMO_REQUEST = 'Give me a quick review of this project, and write the notes down.';

/** Words that ask the demo's main agent to delegate a search to the explore agent. */
const DELEGATE = /\b(find|search|look for|where|locate|grep|explore|delegate)\b/i;
/** Words that ask for the scripted review. */
const REVIEW = /\b(review|run the demo)\b/i;
const STOP_WORDS = new Set(
  'the a an is are was of in on to for and or me my find search look where locate grep explore delegate please can you which what file files code do does it this that with about'.split(
    ' ',
  ),
);

const textOfMessage = (message: Message | undefined): string =>
  !message ? '' : typeof message.content === 'string' ? message.content : textOf(message.content);

function toolResults(messages: readonly Message[]): string[] {
  const results: string[] = [];
  for (const message of messages) {
    if (typeof message.content === 'string') continue;
    for (const block of message.content)
      if (block.type === 'tool_result') results.push(toolResultText(block.content));
  }
  return results;
}

/** The word of `text` a search is about: its first word that is not a stop word. */
export function searchWordOf(text: string): string {
  const words = text.toLowerCase().match(/[a-z0-9_]{3,}/g) ?? [];
  return words.find((word) => !STOP_WORDS.has(word)) ?? 'todo';
}

/** A task tool's result without its trailer (`--- task_id: … · agent: …`), which is for the model. */
function answerOf(result: string | undefined): string {
  return (result ?? '(nothing)').split(/\n+--- task_id:/)[0]!.trim();
}

/** The main agent's answer to an announcement: what ended, and what it produced (its first line). */
function summarise(announcement: string): string {
  const description = /"([^"]*)"/.exec(announcement)?.[1] ?? 'A task';
  const outcome = / was cancelled\./.test(announcement)
    ? 'cancelled'
    : /stopped before finishing/.test(announcement)
      ? 'stopped early'
      : 'finished';
  const produced = /What it produced:\n([^\n]+)/.exec(announcement)?.[1]?.trim();
  return `${description}: ${outcome}.${produced ? ` ${produced}` : ''}`;
}

function taskCall(input: Record<string, unknown>, index: number): ContentBlock {
  return { type: 'tool_use', id: `toolu_demo_${Date.now()}_${index}`, name: 'task', input };
}

/** The demo's main agent: answers what was typed, delegates a search, or runs the scripted review. */
function mainTurn(messages: readonly Message[]): { content: ContentBlock[]; thinking: string } {
  const last = messages[messages.length - 1];
  const text = textOfMessage(last);
  if (text.startsWith('[Background work update]'))
    return { content: [{ type: 'text', text: summarise(text) }], thinking: 'A background task ended.' };
  if (
    last?.role === 'user' &&
    typeof last.content !== 'string' &&
    last.content.some((b) => b.type === 'tool_result')
  ) {
    const results = toolResults([last]);
    if (results.length > 1 || results[0]?.includes('background'))
      return {
        content: [
          {
            type: 'text',
            text: `I started ${results.length} sub-agents in the background; their results will come in here.`,
          },
        ],
        thinking: 'The sub-agents are running; I tell the user.',
      };
    return {
      content: [{ type: 'text', text: `The **explore** agent answered:\n\n${answerOf(results[0])}` }],
      thinking: 'The explore agent is done; I pass on its answer.',
    };
  }
  if (text === DEMO_REQUEST || REVIEW.test(text))
    return {
      thinking: 'A review: I split it into five background tasks.',
      content: [
        { type: 'text', text: 'I will split this between a few sub-agents.' },
        ...DEMO_TASKS.map((task, index) =>
          taskCall(
            {
              description: task.description,
              prompt: task.prompt,
              subagent_type: task.agent,
              run_in_background: true,
            },
            index,
          ),
        ),
      ],
    };
  if (DELEGATE.test(text)) {
    const word = searchWordOf(text);
    return {
      thinking: `This is a search: I ask the explore agent to look for "${word}".`,
      content: [
        { type: 'text', text: `I will ask the explore agent to search for \`${word}\`.` },
        taskCall({ description: `Search for ${word}`, prompt: text, subagent_type: 'explore' }, 0),
      ],
    };
  }
  return {
    thinking: 'Nothing to delegate: I answer directly.',
    content: [
      {
        type: 'text',
        text: [
          `You wrote: “${text.trim().slice(0, 200)}”.`,
          '',
          'This is the **offline demo**: a small scripted model, not Claude, so it understands only a few requests:',
          '',
          '- *find login* (or *where is …*, *search …*) — it delegates the search to the **explore** agent;',
          '- *review the project* — it starts five background tasks, two of which ask for your approval.',
          '',
          'To talk to Claude, open **Model** and give a key or a proxy.',
        ].join('\n'),
      },
    ],
  };
}

/** A delegated search that has no script: grep for the word the prompt is about, then report it. */
function searchStep(prompt: string, turn: number, results: string[]): DemoStep {
  const word = searchWordOf(prompt);
  if (turn === 0)
    return { tools: [{ name: 'grep', input: { pattern: word, output_mode: 'content', '-i': true } }] };
  const found = (results[0] ?? '').trim();
  return {
    answer:
      !found || /^No (matches|files)/i.test(found)
        ? `Nothing in the project mentions \`${word}\`.`
        : `Lines mentioning \`${word}\`:\n\n\`\`\`\n${found.split('\n').slice(0, 12).join('\n')}\n\`\`\``,
  };
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason);
    });
  });
}

/** Streams `text` word by word through `onDelta`, as a real model's answer arrives. */
async function stream(
  text: string,
  kind: 'text' | 'thinking',
  ms: number,
  signal: AbortSignal,
  options: GenerateOptions | undefined,
): Promise<void> {
  if (!options?.onDelta) return;
  const pieces = text.match(/\S+\s*/g) ?? [];
  for (const piece of pieces) {
    options.onDelta(kind === 'text' ? { type: 'text', text: piece } : { type: 'thinking', thinking: piece });
    await pause(ms / Math.max(pieces.length, 1), signal);
  }
}

const estimate = (value: unknown) => Math.ceil(JSON.stringify(value ?? '').length / 4);

/**
 * The offline demo's model. The main agent answers what is typed: a search is delegated to the
 * explore agent (which greps the OPFS project), "review" starts the scripted review
 * ({@link DEMO_TASKS}) in the background, anything else gets an answer saying what the demo can
 * do. Its reasoning and text stream like a real model's. `pace` scales every pause (1 for people,
 * small in tests).
 */
export function createDemoModel(pace: number): ModelAdapter {
  return {
    name: 'demo',
    async generate(
      request: ModelRequest,
      signal: AbortSignal,
      options?: GenerateOptions,
    ): Promise<ModelResponse> {
      let content: ContentBlock[];
      let wait: number;
      if (request.agent === 'main' || !request.taskId || request.taskId.includes('#')) {
        const turn = mainTurn(request.messages);
        await stream(turn.thinking, 'thinking', 300 * pace, signal, options);
        const first = turn.content[0];
        if (first?.type === 'text') await stream(first.text, 'text', 400 * pace, signal, options);
        content = turn.content;
        wait = 100;
      } else {
        const prompt = textOfMessage(request.messages[0]);
        const task = DEMO_TASKS.find(
          (candidate) => candidate.agent === request.agent && prompt.includes(candidate.prompt),
        );
        const turn = request.messages.filter((message) => message.role === 'assistant').length;
        const results = toolResults(request.messages);
        const step = task ? task.turn(turn, results) : searchStep(prompt, turn, results);
        wait = step.wait ?? 500;
        content = step.answer
          ? [{ type: 'text', text: step.answer }]
          : (step.tools ?? []).map((call, index) => ({
              type: 'tool_use' as const,
              id: `toolu_${request.taskId}_${turn}_${index}`.replace(/[^a-zA-Z0-9_-]/g, '_'),
              name: call.name,
              input: call.input,
            }));
      }
      await pause(Math.round(wait * pace), signal);
      const hasToolUse = content.some((block) => block.type === 'tool_use');
      return {
        content,
        stopReason: hasToolUse ? 'tool_use' : 'end_turn',
        usage: { input: estimate(request.messages), output: estimate(content) },
        model: request.model,
      };
    },
  };
}
