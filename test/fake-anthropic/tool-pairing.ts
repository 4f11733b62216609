// The API's pairing rules for tool calls, checked across messages.

function isObject(value: unknown): value is Record<string, any> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function blocksOf(message: Record<string, any>): unknown[] {
  return Array.isArray(message.content) ? message.content : [];
}

/**
 * Tool-use pairing: ids are unique, every tool_use is answered first thing in the next user
 * message, every tool_result answers a call of the previous message, once. Adds issues to `issues`.
 */
export function checkToolPairing(messages: Record<string, any>[], issues: string[]): void {
  const seen = new Set<string>();
  messages.forEach((message, index) => {
    if (message.role !== 'assistant') return;
    const ids = blocksOf(message)
      .filter((block): block is Record<string, any> => isObject(block) && block.type === 'tool_use')
      .map((block) => String(block.id));
    for (const id of ids) {
      if (seen.has(id)) issues.push(`messages.${index}: tool_use ids must be unique (\`${id}\` is repeated)`);
      seen.add(id);
    }
    if (ids.length === 0) return;
    const next = messages[index + 1];
    const nextBlocks = next && next.role === 'user' ? blocksOf(next) : [];
    const leading: string[] = [];
    for (const block of nextBlocks) {
      if (!isObject(block) || block.type !== 'tool_result') break;
      leading.push(String(block.tool_use_id));
    }
    const missing = ids.filter((id) => !leading.includes(id));
    if (missing.length > 0) {
      const placedLate = nextBlocks.some(
        (block) =>
          isObject(block) && block.type === 'tool_result' && missing.includes(String(block.tool_use_id)),
      );
      issues.push(
        placedLate
          ? `messages.${index + 1}.content: tool_result blocks must come first in the user message, before any other content (ids: ${missing.join(', ')})`
          : `messages.${index}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.join(', ')}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`,
      );
    }
  });
  messages.forEach((message, index) => {
    if (message.role !== 'user') return;
    const previous = messages[index - 1];
    const offered = new Set(
      previous && previous.role === 'assistant'
        ? blocksOf(previous)
            .filter((block): block is Record<string, any> => isObject(block) && block.type === 'tool_use')
            .map((block) => String(block.id))
        : [],
    );
    const answered = new Set<string>();
    blocksOf(message).forEach((block, i) => {
      if (!isObject(block) || block.type !== 'tool_result') return;
      const id = String(block.tool_use_id);
      if (answered.has(id))
        issues.push(
          `messages.${index}.content.${i}: each \`tool_use\` must have a single result; found multiple \`tool_result\` blocks with id: ${id}`,
        );
      answered.add(id);
      if (!offered.has(id))
        issues.push(
          `messages.${index}.content.${i}: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${String(block.tool_use_id)}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`,
        );
    });
  });
}
