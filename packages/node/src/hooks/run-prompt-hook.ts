import type { ModelAdapter } from '@troupe/core';

/** How a prompt hook's model call ended: its verdict, or why there is none. */
export type PromptHookRun =
  | { ok: true }
  | { ok: false; reason: string }
  | { failed: string; timedOut?: boolean };

/** What {@link runPromptHook} asks. */
export interface PromptHookRequest {
  model: ModelAdapter;
  /** The model id the adapter is asked for. */
  modelId: string;
  /** The hook's prompt: `$ARGUMENTS` is replaced by `input`, else `input` is appended. */
  prompt: string;
  /** The event's JSON. */
  input: string;
  timeoutMs: number;
  signal?: AbortSignal;
}

const SYSTEM = `You evaluate a hook condition for a coding agent. You are given a condition and the event it applies to, as JSON. Judge whether the condition is met. Reply with only a JSON object, one of:
{"ok": true}
{"ok": false, "reason": "<what is wrong, for the agent to act on>"}`;

/**
 * Claude Code's `prompt` hook: one model call, no tools, judging the event's JSON; the answer is
 * `{ "ok": true }` or `{ "ok": false, "reason": "…" }` (a JSON object, possibly in a code fence).
 * Never rejects: a model error, a timeout or an answer that is not such an object is `failed`.
 */
export async function runPromptHook(request: PromptHookRequest): Promise<PromptHookRun> {
  const timeout = AbortSignal.timeout(request.timeoutMs);
  const signal = request.signal ? AbortSignal.any([request.signal, timeout]) : timeout;
  const content = request.prompt.includes('$ARGUMENTS')
    ? request.prompt.split('$ARGUMENTS').join(request.input)
    : `${request.prompt}\n\n${request.input}`;
  try {
    const response = await request.model.generate(
      {
        model: request.modelId,
        system: SYSTEM,
        messages: [{ role: 'user', content }],
        tools: [],
        maxTokens: 1024,
      },
      signal,
    );
    const text = response.content
      .map((block) => (block.type === 'text' ? block.text : ''))
      .join('')
      .trim();
    const start = text.indexOf('{');
    const end = text.lastIndexOf('}');
    if (start < 0 || end < start) return { failed: 'its model did not answer with a JSON object' };
    let answer: unknown;
    try {
      answer = JSON.parse(text.slice(start, end + 1));
    } catch {
      return { failed: 'its model answered with JSON that cannot be read' };
    }
    const { ok, reason } = (answer ?? {}) as { ok?: unknown; reason?: unknown };
    if (ok === true) return { ok: true };
    if (ok === false)
      return {
        ok: false,
        reason: typeof reason === 'string' && reason.trim() ? reason : 'the prompt hook said no',
      };
    return { failed: 'its model answered without "ok": true or false' };
  } catch (error) {
    return timeout.aborted
      ? { failed: 'timed out', timedOut: true }
      : { failed: `its model call failed: ${error instanceof Error ? error.message : String(error)}` };
  }
}
