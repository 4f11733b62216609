import type { TaskResult, TaskSpec } from '../persistence/types.js';

/** The message delivered to the originating session when an announced task ends. */
export function announcement(spec: Pick<TaskSpec, 'description'>, result: TaskResult): string {
  const output = typeof result.output === 'string' ? result.output : JSON.stringify(result.output, null, 2);
  const outcome =
    result.status === 'completed'
      ? 'finished'
      : result.status === 'cancelled'
        ? 'was cancelled'
        : `stopped before finishing (${describeReason(result)})`;
  return [
    `[Background work update] The background work "${spec.description}" ${outcome}.`,
    output ? `What it produced:\n${output}` : 'It produced no answer.',
    'Tell the user what this means for them in a few plain sentences. Do not mention task ids, agents, tools or other internal details.',
  ].join('\n\n');
}

function describeReason(result: TaskResult): string {
  switch (result.terminateReason) {
    case 'MAX_TURNS':
      return 'it ran out of steps';
    case 'TIMEOUT':
      return 'it ran out of time';
    case 'TOKEN_LIMIT':
      return 'it used up its budget';
    default:
      return result.error?.message ?? 'an error';
  }
}
