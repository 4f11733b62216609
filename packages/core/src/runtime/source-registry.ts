import type { Tool } from '../tools/define-tool.js';
import { createToolRegistry, type ToolRegistry } from '../tools/tool-registry.js';
import type { ToolSource, ToolSourceRequest } from '../tools/tool-source.js';

async function ask(
  source: ToolSource,
  request: ToolSourceRequest,
  warn: (message: string) => void,
): Promise<readonly Tool[]> {
  try {
    const answer = await source.tools(request);
    for (const message of answer.warnings ?? []) warn(message);
    return answer.tools;
  } catch (error) {
    warn(
      `Tool source "${source.name}" gave task ${request.taskId} no tools: ${(error as Error)?.message ?? String(error)}`,
    );
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
): ToolRegistry {
  let current = base;
  let pending: Promise<void> | undefined;
  let done = false;
  const resolve = async () => {
    const answers = await Promise.all(sources.map((source) => ask(source, request, warn)));
    const selected = createToolRegistry(answers.flat(), request.selection);
    const tools = base.names.map((name) => base.get(name)!);
    for (const name of selected.names) {
      if (base.has(name)) {
        warn(
          `A tool source offers "${name}", which task ${request.taskId} already has; the source's tool is left out.`,
        );
        continue;
      }
      tools.push(selected.get(name)!);
    }
    current = createToolRegistry(tools);
    done = true;
  };
  return {
    get names() {
      return current.names;
    },
    get specs() {
      return current.specs;
    },
    get: (name) => current.get(name),
    has: (name) => current.has(name),
    ready() {
      if (done) return undefined;
      pending ??= resolve();
      return pending;
    },
  };
}
