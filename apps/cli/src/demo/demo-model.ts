import {
  type ContentBlock,
  type Message,
  type ModelRequest,
  type ToolUseBlock,
  toolResultText,
} from '@troupe/core';
import { type ScriptedModel, scriptedModel } from '@troupe/core/testing';
import { DEMO_TASKS, type DemoTask, type ToolOutcome } from './demo-tasks.js';
import { mainAgentTurn } from './main-script.js';

/** Options of {@link createDemoModel}. */
export interface DemoModelOptions {
  /** Multiplies the pauses before each answer (1 in a terminal, so progress is visible; ~0 in CI). */
  pace: number;
}

function outcomesOf(messages: readonly Message[]): ToolOutcome[] {
  const calls = new Map<string, ToolUseBlock>();
  const outcomes: ToolOutcome[] = [];
  for (const message of messages) {
    if (typeof message.content === 'string') continue;
    for (const block of message.content) {
      if (block.type === 'tool_use') calls.set(block.id, block);
      if (block.type === 'tool_result') {
        const call = calls.get(block.tool_use_id);
        const text = toolResultText(block.content);
        outcomes.push({
          name: call?.name ?? 'unknown',
          input: (call?.input as Record<string, unknown>) ?? {},
          text,
          isError: block.is_error === true,
        });
      }
    }
  }
  return outcomes;
}

function taskOf(request: ModelRequest): DemoTask | undefined {
  const first = request.messages[0];
  const prompt = typeof first?.content === 'string' ? first.content : '';
  return DEMO_TASKS.find((task) => task.agent === request.agent && prompt.includes(task.prompt));
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => clearTimeout(timer), { once: true });
  });
}

/** Tokens as the demo counts them: about four characters each. */
function estimate(value: unknown): number {
  return Math.ceil(JSON.stringify(value).length / 4);
}

/**
 * The demo's model: a scripted stand-in for Claude. The main agent follows {@link mainAgentTurn};
 * each sub-agent follows its {@link DemoTask}, calling the real tools and answering from what they
 * returned. Usage is estimated from the text sizes, and each answer comes after a short pause
 * (scaled by `pace`) so that progress can be watched.
 */
export function createDemoModel(options: DemoModelOptions): ScriptedModel {
  return scriptedModel(async (request, { signal }) => {
    const turn = request.messages.filter((message) => message.role === 'assistant').length;
    let content: ContentBlock[];
    let wait = 300;
    if (request.agent === 'main' || request.taskId?.includes('#')) {
      content = mainAgentTurn(request.messages);
      wait = 250;
    } else {
      const task = taskOf(request);
      if (!task) {
        content = [{ type: 'text', text: 'This demo agent has no script for that task.' }];
      } else {
        const step = task.turn(turn, outcomesOf(request.messages));
        wait = 350 + ((task.description.length * 37 + turn * 101) % 5) * 110;
        // Runs until the demo cancels the task (the abort rejects the call).
        if ('hang' in step) return new Promise<never>(() => {});
        content =
          'answer' in step
            ? [{ type: 'text', text: step.answer }]
            : [
                ...(step.text ? [{ type: 'text' as const, text: step.text }] : []),
                ...step.tools.map(
                  (call, index): ContentBlock => ({
                    type: 'tool_use',
                    id: `toolu_${request.taskId ?? 'task'}_${turn}_${index}`.replace(/[^a-zA-Z0-9_-]/g, '_'),
                    name: call.name,
                    input: call.input,
                  }),
                ),
              ];
      }
    }
    await pause(Math.round(wait * options.pace), signal);
    const input = estimate(request.system) + estimate(request.messages) + estimate(request.tools);
    return { content, usage: { input, output: estimate(content) } };
  });
}
