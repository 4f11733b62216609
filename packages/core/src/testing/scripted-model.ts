import { ModelError } from '../errors.js';
import { abortError, raceAbort } from '../model/abort.js';
import type {
  ContentBlock,
  ModelAdapter,
  ModelRequest,
  ModelResponse,
  StopReason,
  Usage,
} from '../model/types.js';

/** What a script returns for one call: a response, with `stopReason` and `model` optional. */
export interface ScriptedReply {
  content: ContentBlock[];
  usage?: Usage;
  stopReason?: StopReason;
  model?: string;
}

/** A script: a function of the request (may be async and should honour the signal). */
export type Script = (
  request: ModelRequest,
  context: { signal: AbortSignal; call: number },
) => ScriptedReply | Promise<ScriptedReply>;

/** A scripted model and what it was asked. */
export interface ScriptedModel extends ModelAdapter {
  /** Every request received, in order. */
  readonly requests: ModelRequest[];
}

/**
 * A `ModelAdapter` that answers each request with a function of it, or with the next reply of a
 * list. No network. A reply without `stopReason` gets `tool_use` when it has tool calls and
 * `end_turn` otherwise; without `model` it reports the requested id. A list that runs out throws a
 * `ModelError` naming the call. An aborted signal rejects with an `AbortError`.
 */
export function scriptedModel(script: Script | readonly ScriptedReply[]): ScriptedModel {
  const requests: ModelRequest[] = [];
  const answer: Script = Array.isArray(script)
    ? (_request, { call }) => {
        const reply = (script as readonly ScriptedReply[])[call];
        if (!reply)
          throw new ModelError(
            'MODEL_ERROR',
            `scriptedModel: no reply scripted for call ${call + 1} (the script has ${script.length}).`,
          );
        return reply;
      }
    : (script as Script);
  return {
    name: 'scripted',
    requests,
    async generate(request, signal): Promise<ModelResponse> {
      if (signal.aborted) throw abortError();
      const call = requests.length;
      requests.push(request);
      const reply = await raceAbort(Promise.resolve(answer(request, { signal, call })), signal);
      const hasToolUse = reply.content.some((block) => block.type === 'tool_use');
      return {
        content: reply.content,
        stopReason: reply.stopReason ?? (hasToolUse ? 'tool_use' : 'end_turn'),
        usage: reply.usage ?? { input: 0, output: 0 },
        model: reply.model ?? request.model,
      };
    },
  };
}

/** A text reply. */
export function textReply(text: string, usage: Usage = { input: 10, output: 5 }): ScriptedReply {
  return { content: [{ type: 'text', text }], usage };
}

/** A reply calling one tool. `id` defaults to a deterministic one. */
export function toolReply(
  name: string,
  input: unknown,
  options: { id?: string; text?: string; usage?: Usage } = {},
): ScriptedReply {
  return toolCallsReply(
    [options.id === undefined ? { name, input } : { name, input, id: options.id }],
    options,
  );
}

/** One tool call of {@link toolCallsReply}. `id` defaults to a deterministic one. */
export interface ScriptedToolCall {
  /** The tool's name, as offered in the request. */
  name: string;
  /** The call's input (not checked here: the runtime validates it against the tool's schema). */
  input: unknown;
  /** The `tool_use` id. */
  id?: string;
}

/**
 * A reply calling several tools in one turn (the runtime runs them in parallel), in order, after
 * `options.text` when given.
 */
export function toolCallsReply(
  calls: readonly ScriptedToolCall[],
  options: { text?: string; usage?: Usage } = {},
): ScriptedReply {
  const content: ContentBlock[] = [];
  if (options.text) content.push({ type: 'text', text: options.text });
  for (const { name, input, id } of calls)
    content.push({ type: 'tool_use', id: id ?? `toolu_${name}_${counter++}`, name, input });
  return { content, usage: options.usage ?? { input: 10, output: 5 } };
}
let counter = 0;

/** A model call that never answers: rejects with an `AbortError` once `signal` aborts. */
export function hang(signal: AbortSignal): Promise<never> {
  if (signal.aborted) return Promise.reject(abortError(signal.reason));
  return new Promise((_resolve, reject) =>
    signal.addEventListener('abort', () => reject(abortError(signal.reason)), { once: true }),
  );
}
