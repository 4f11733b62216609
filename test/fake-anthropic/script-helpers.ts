import type { FakeReply, FakeUsage, RecordedRequest } from './types.js';

/** A reply with one text block. */
export function textStep(text: string, usage?: FakeUsage): FakeReply {
  return usage ? { content: [{ type: 'text', text }], usage } : { content: [{ type: 'text', text }] };
}

/** A reply calling one tool, optionally after some text. The id defaults to a deterministic one. */
export function toolStep(
  name: string,
  input: Record<string, unknown>,
  options: { id?: string; text?: string; usage?: FakeUsage } = {},
): FakeReply {
  const reply: FakeReply = { content: [] };
  if (options.text) reply.content.push({ type: 'text', text: options.text });
  reply.content.push(
    options.id ? { type: 'tool_use', id: options.id, name, input } : { type: 'tool_use', name, input },
  );
  if (options.usage) reply.usage = options.usage;
  return reply;
}

function lastUserContent(request: RecordedRequest): unknown[] {
  const messages: any[] = Array.isArray(request.body?.messages) ? request.body.messages : [];
  const last = [...messages].reverse().find((message) => message?.role === 'user');
  if (!last) return [];
  return typeof last.content === 'string' ? [{ type: 'text', text: last.content }] : (last.content ?? []);
}

/** The text of the last user message of a recorded request (text blocks joined by newlines). */
export function lastUserText(request: RecordedRequest): string {
  return lastUserContent(request)
    .filter((block: any) => block?.type === 'text')
    .map((block: any) => String(block.text))
    .join('\n');
}

/** The tool results of the last user message: id, text content and whether it was an error. */
export function toolResultsOf(request: RecordedRequest): { id: string; content: string; isError: boolean }[] {
  return lastUserContent(request)
    .filter((block: any) => block?.type === 'tool_result')
    .map((block: any) => ({
      id: String(block.tool_use_id),
      content:
        typeof block.content === 'string'
          ? block.content
          : Array.isArray(block.content)
            ? block.content.map((inner: any) => String(inner?.text ?? '')).join('\n')
            : '',
      isError: block.is_error === true,
    }));
}

/** The system prompt of a recorded request as plain text. */
export function systemOf(request: RecordedRequest): string {
  const system = request.body?.system;
  if (typeof system === 'string') return system;
  return Array.isArray(system) ? system.map((block: any) => String(block?.text ?? '')).join('\n') : '';
}

/** The tool names a recorded request offered the model. */
export function toolNamesOf(request: RecordedRequest): string[] {
  return Array.isArray(request.body?.tools) ? request.body.tools.map((tool: any) => String(tool?.name)) : [];
}

/**
 * Whether a recorded request is troupe's main agent asking: it offers the `task` tool and its
 * system prompt is the main agent's (sub-agents may have the task tools too, when they nest).
 */
export function isMainAgent(request: RecordedRequest): boolean {
  return toolNamesOf(request).includes('task') && systemOf(request).includes('main agent');
}
