import { GRACE_INSTRUCTION } from '../machines/subagent-context.js';
import type { ModelRequest } from '../model/types.js';

/**
 * Whether `request` is a task's grace turn (the one answer given after MAX_TURNS or TIMEOUT): its
 * last message carries the grace note. The grace turn sends the same tools as the turns before,
 * so a scripted model tells it apart by this note, not by an empty tool list.
 */
export function isGraceRequest(request: ModelRequest): boolean {
  const last = request.messages.at(-1);
  if (last?.role !== 'user') return false;
  if (typeof last.content === 'string') return last.content.includes(GRACE_INSTRUCTION);
  return last.content.some((block) => block.type === 'text' && block.text.includes(GRACE_INSTRUCTION));
}
