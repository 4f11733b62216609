import { describeThrown } from '../persistence/plain-json.js';
import type { Tool } from '../tools/define-tool.js';
import { createToolRegistry, type ToolRegistry } from '../tools/tool-registry.js';
import type { ToolSource, ToolSourceRequest } from '../tools/tool-source.js';
import { lazyRegistry } from './lazy-registry.js';

/**
 * A tool a source answered, copied from its fields (each read once) when it has what the runtime
 * uses: a name, a description, an access class, an input schema and `execute`. Else the reason.
 */
function readTool(value: unknown, index: number): Tool | string {
  if (typeof value !== 'object' || value === null) return `tools[${index}] is not a tool`;
  const { name, description, access, input, inputJsonSchema, execute } = value as Record<string, unknown>;
  if (typeof name !== 'string' || name.length === 0) return `tools[${index}] has no name`;
  if (
    typeof description !== 'string' ||
    (access !== 'read' && access !== 'write' && access !== 'execute') ||
    typeof input !== 'object' ||
    input === null ||
    typeof inputJsonSchema !== 'object' ||
    inputJsonSchema === null ||
    typeof execute !== 'function'
  )
    return `its tool "${name.slice(0, 64)}" is not a tool made by defineTool`;
  return {
    name,
    description,
    access,
    input: input as Tool['input'],
    inputJsonSchema: inputJsonSchema as Tool['inputJsonSchema'],
    execute: (toolInput, context) => execute.call(value, toolInput, context),
  };
}

/** What `source` offers `request`'s task: the tools it can read; the rest, and its failures, warned about. */
async function ask(
  source: ToolSource,
  request: ToolSourceRequest,
  warn: (message: string) => void,
): Promise<readonly Tool[]> {
  const failed = (why: string) => warn(`Tool source "${source.name}" gave task ${request.taskId} ${why}`);
  try {
    const answer = await source.tools(request);
    const { tools, warnings } = answer as { tools?: unknown; warnings?: unknown };
    if (Array.isArray(warnings))
      for (const message of warnings) if (typeof message === 'string') warn(message);
    if (!Array.isArray(tools)) {
      failed('no tools: its answer has no list of tools');
      return [];
    }
    const kept: Tool[] = [];
    for (let index = 0; index < tools.length; index++) {
      let tool: Tool | string;
      try {
        tool = readTool(tools[index], index);
      } catch (error) {
        tool = `tools[${index}] cannot be read: ${describeThrown(error)}`;
      }
      if (typeof tool === 'string') failed(`a tool it cannot use, left out: ${tool}`);
      else kept.push(tool);
    }
    return kept;
  } catch (error) {
    failed(`no tools: ${describeThrown(error)}`);
    return [];
  }
}

/**
 * A task's registry that starts as `base` and gains, once `ready()` is awaited, the tools of
 * `sources` that `request.selection` keeps. `ready()` asks the sources at its first call (they may
 * start servers) and returns undefined once they answered, so later turns pay nothing. A source's
 * tool named like a tool already in `base` is left out with a warning.
 */
export function withToolSources(
  base: ToolRegistry,
  sources: readonly ToolSource[],
  request: ToolSourceRequest,
  warn: (message: string) => void,
  /** Sources whose tools the agent gets whatever its allow-list (its deny-list still holds): its memory's. */
  unrestricted: readonly ToolSource[] = [],
): ToolRegistry {
  const gather = async () => {
    const [answers, always] = await Promise.all([
      Promise.all(sources.map((source) => ask(source, request, warn))),
      Promise.all(unrestricted.map((source) => ask(source, request, warn))),
    ]);
    const selected = createToolRegistry(answers.flat(), request.selection);
    const kept = createToolRegistry(always.flat(), { deny: request.selection.deny });
    const tools = base.names.map((name) => base.get(name)!);
    const offered = [
      ...selected.names.map((name) => selected.get(name)!),
      ...kept.names.map((name) => kept.get(name)!),
    ];
    for (const tool of offered) {
      const name = tool.name;
      if (base.has(name)) {
        warn(
          `A tool source offers "${name}", which task ${request.taskId} already has; the source's tool is left out.`,
        );
        continue;
      }
      tools.push(tool);
    }
    return createToolRegistry(tools);
  };
  return lazyRegistry(base, async () => {
    try {
      return { registry: await gather() };
    } catch (error) {
      // Never a rejected `ready()`: the task would wait for it again and again.
      warn(`The tool sources gave task ${request.taskId} no tools: ${describeThrown(error)}`);
      return { registry: base };
    }
  });
}
