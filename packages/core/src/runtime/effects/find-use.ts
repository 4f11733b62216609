import type { SubagentContext } from '../../machines/subagent-machine.js';
import type { ToolUseBlock } from '../../model/types.js';

/** The `tool_use` block `toolUseId` of the last assistant message, if it is there. */
export function findUse(context: SubagentContext, toolUseId: string): ToolUseBlock | undefined {
  const last = context.messages[context.messages.length - 1];
  if (!last || typeof last.content === 'string') return undefined;
  for (const block of last.content) if (block.type === 'tool_use' && block.id === toolUseId) return block;
  return undefined;
}
