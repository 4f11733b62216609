import type { ModelRequest } from '../model/types.js';

/**
 * The turn a model request is for, from 1: one more than the assistant messages it carries. A
 * scripted model's way to answer by turn.
 */
export function turnOf(request: ModelRequest): number {
  return request.messages.filter((message) => message.role === 'assistant').length + 1;
}
