import type { ContentBlock, Message, ModelRequest } from '@troupe/core';
import { textOf, toolResultText } from '@troupe/core';
import { scriptedModel } from '@troupe/core/testing';

/** What the demo's user asks. */
export const DEMO_REQUEST = 'Give me a quick review of this project, and write the notes down.';

interface Step {
  tools?: { name: string; input: Record<string, unknown> }[];
  answer?: string;
  /** Pause before this step's answer, in ms (scaled by the pace). */
  wait?: number;
}

/** One of the demo's background tasks, scripted turn by turn from the tool results so far. */
interface DemoTask {
  agent: string;
  description: string;
  prompt: string;
  turn(turn: number, results: string[]): Step;
}

/** The demo's tasks, in the order the main agent starts them. */
export const DEMO_TASKS: DemoTask[] = [
  {
    agent: 'explore',
    description: 'Find the auth code',
    prompt: 'Thoroughness: quick. Find where logins are handled.',
    turn: (turn, results) =>
      turn === 0
        ? { tools: [{ name: 'grep', input: { pattern: 'login' } }] }
        : turn === 1
          ? { tools: [{ name: 'read', input: { file_path: 'src/auth.js' } }] }
          : {
              answer: `Logins are handled in src/auth.js (${results[0]?.split('\n').length ?? 0} lines of grep output).`,
            },
  },
  {
    agent: 'explore',
    description: 'Count the TODOs',
    prompt: 'Thoroughness: quick. Count the TODO comments.',
    turn: (turn, results) =>
      turn === 0
        ? { tools: [{ name: 'grep', input: { pattern: 'TODO', output_mode: 'count' } }] }
        : { answer: `TODOs: ${/Total: (\d+)/.exec(results[0] ?? '')?.[1] ?? 'none'} in the source.` },
  },
  {
    agent: 'general-purpose',
    description: 'Write the review notes',
    prompt: 'Write NOTES.md with the review notes.',
    turn: (turn, results) =>
      turn === 0
        ? {
            tools: [
              { name: 'write', input: { file_path: 'NOTES.md', content: '# Review\n\n- hash passwords\n' } },
            ],
          }
        : {
            answer:
              results[0]?.startsWith('Created') || results[0]?.startsWith('Overwrote')
                ? 'Wrote NOTES.md.'
                : `NOTES.md was not written: ${results[0]}`,
          },
  },
  {
    agent: 'general-purpose',
    description: 'Add a changelog',
    prompt: 'Create CHANGELOG.md.',
    turn: (turn, results) =>
      turn === 0
        ? { tools: [{ name: 'write', input: { file_path: 'CHANGELOG.md', content: '# Changelog\n' } }] }
        : {
            answer:
              results[0]?.startsWith('Created') || results[0]?.startsWith('Overwrote')
                ? 'Wrote CHANGELOG.md.'
                : `CHANGELOG.md was not written: ${results[0]}`,
          },
  },
  {
    agent: 'explore',
    description: 'Survey every file',
    prompt: 'Thoroughness: very thorough. Read every file.',
    turn: (turn) =>
      turn < 3
        ? { tools: [{ name: 'glob', input: { pattern: '**/*' } }], wait: 2_500 }
        : { answer: 'Surveyed 6 files in 3 passes.', wait: 2_500 },
  },
];

function toolResults(messages: readonly Message[]): string[] {
  const results: string[] = [];
  for (const message of messages) {
    if (typeof message.content === 'string') continue;
    for (const block of message.content) {
      if (block.type === 'tool_result') {
        results.push(toolResultText(block.content));
      }
    }
  }
  return results;
}

function mainTurn(messages: readonly Message[]): ContentBlock[] {
  const last = messages[messages.length - 1];
  const text = last && typeof last.content === 'string' ? last.content : last ? textOf(last.content) : '';
  if (text.startsWith('[Background work update]')) {
    const description = /"([^"]*)"/.exec(text)?.[1] ?? 'A task';
    const outcome = / was cancelled\./.test(text)
      ? 'cancelled'
      : /stopped before finishing/.test(text)
        ? 'stopped early'
        : 'finished';
    return [{ type: 'text', text: `${description}: ${outcome}.` }];
  }
  if (
    last?.role === 'user' &&
    typeof last.content !== 'string' &&
    last.content.some((b) => b.type === 'tool_result')
  ) {
    return [
      {
        type: 'text',
        text: `I started ${DEMO_TASKS.length} sub-agents in the background; their results will come in here.`,
      },
    ];
  }
  return [
    { type: 'text', text: 'I will split this between a few sub-agents.' },
    ...DEMO_TASKS.map(
      (task, index): ContentBlock => ({
        type: 'tool_use',
        id: `toolu_demo_${Date.now()}_${index}`,
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

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason);
    });
  });
}

const estimate = (value: unknown) => Math.ceil(JSON.stringify(value ?? '').length / 4);

/**
 * The offline demo's model: the main agent starts {@link DEMO_TASKS} in the background; each
 * sub-agent follows its script, calling the real OPFS tools. `pace` scales every pause (1 for
 * people, small in tests).
 */
export function createDemoModel(pace: number) {
  return scriptedModel(async (request: ModelRequest, { signal }) => {
    let content: ContentBlock[];
    let wait = 400;
    if (request.agent === 'main' || !request.taskId || request.taskId.includes('#')) {
      content = mainTurn(request.messages);
      wait = 200;
    } else {
      const first = request.messages[0];
      const prompt =
        first && typeof first.content === 'string' ? first.content : first ? textOf(first.content) : '';
      const task = DEMO_TASKS.find(
        (candidate) => candidate.agent === request.agent && prompt.includes(candidate.prompt),
      );
      const turn = request.messages.filter((message) => message.role === 'assistant').length;
      const step = task?.turn(turn, toolResults(request.messages)) ?? {
        answer: 'The demo has no script for this task.',
      };
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
    return { content, usage: { input: estimate(request.messages), output: estimate(content) } };
  });
}
