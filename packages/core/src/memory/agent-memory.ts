import type { AgentDefinition, AgentMemoryScope } from '../definitions/types.js';
import type { Tool } from '../tools/define-tool.js';

/** Which memory a task's agent uses. */
export interface AgentMemoryRequest {
  taskId: string;
  agent: string;
  scope: AgentMemoryScope;
}

/**
 * A host's agent memory (`createRuntime({ memory })`): one folder per agent and scope, whose
 * `MEMORY.md` the agent is given when a task starts, and tools to read and update it, confined to
 * that folder, that the agent gets whatever its allow-list says. `@troupe/node`'s
 * `createAgentMemory` keeps it in `.claude/agent-memory/<name>/` and its siblings.
 */
export interface AgentMemory {
  /** Names the folder for the agent (a path), shown to it with its memory. */
  folder(request: AgentMemoryRequest): string;
  /** The folder's `MEMORY.md` as it is now; undefined when there is none yet. */
  readIndex(request: AgentMemoryRequest): Promise<string | undefined>;
  /** Tools over the folder (their names start with `memory_`). */
  tools(request: AgentMemoryRequest): readonly Tool[] | Promise<readonly Tool[]>;
}

/** The most lines and characters of `MEMORY.md` given to an agent at start (Claude Code gives 200 lines). */
export const MAX_MEMORY_LINES = 200;
export const MAX_MEMORY_CHARS = 25_000;

/** The memory scope an agent asks for (`memory: user | project | local`), if any. */
export function memoryScopeOf(definition: AgentDefinition): AgentMemoryScope | undefined {
  return definition.memory;
}

/**
 * What an agent is told about its memory when a task starts: where it is, how to keep it, and its
 * `MEMORY.md` (the first {@link MAX_MEMORY_LINES} lines, at most {@link MAX_MEMORY_CHARS}
 * characters, with a note when cut).
 */
export function memoryBriefing(
  folder: string,
  index: string | undefined,
  toolNames: readonly string[],
): string {
  const tools = toolNames.length ? toolNames.join(', ') : 'your memory tools';
  const intro = `You have a persistent agent memory in ${folder}. Read and update it with ${tools} (paths are relative to that folder). Keep MEMORY.md short: an index of what you learned that will help next time, with details in other files of the folder; its first ${MAX_MEMORY_LINES} lines are given to you each time you start.`;
  if (index === undefined || index.trim() === '')
    return `${intro}\n\nYour MEMORY.md is empty: nothing is remembered yet.`;
  let text = index;
  const lines = text.split('\n');
  let note = '';
  if (lines.length > MAX_MEMORY_LINES) {
    text = lines.slice(0, MAX_MEMORY_LINES).join('\n');
    note = `\n[MEMORY.md was cut here: ${lines.length - MAX_MEMORY_LINES} more lines; read the file for the rest and make it shorter.]`;
  }
  if (text.length > MAX_MEMORY_CHARS) {
    note = `\n[MEMORY.md was cut here: ${(index.length - MAX_MEMORY_CHARS).toLocaleString('en-US')} more characters; read the file for the rest and make it shorter.]`;
    text = text.slice(0, MAX_MEMORY_CHARS);
  }
  return `${intro}\n\n<agent-memory file="MEMORY.md">\n${text}${note}\n</agent-memory>`;
}
