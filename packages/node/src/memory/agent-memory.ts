import { existsSync } from 'node:fs';
import { mkdir, open } from 'node:fs/promises';
import { join } from 'node:path';
import type { AgentMemory, AgentMemoryRequest, AgentMemoryScope, Tool } from '@troupe/core';
import { createWorkspaceTools } from '@troupe/core/workspace';
import { createNodeFileSystem } from '../tools/node-file-system.js';
import { createWorkspace } from '../tools/workspace.js';

/** Options of {@link createAgentMemory}. */
export interface AgentMemoryOptions {
  /** The project folder (`project` and `local` memory live under it). */
  cwd: string;
  home: string;
  /** Scopes that may be used (a host leaves out an untrusted project's `project` and `local`). Default all. */
  scopes?: readonly AgentMemoryScope[];
}

/** The most bytes of `MEMORY.md` read (core gives the agent its first 200 lines, 25,000 characters at most). */
const MAX_INDEX_BYTES = 256 * 1024;

const FOLDERS: Record<AgentMemoryScope, string> = {
  user: 'agent-memory',
  project: 'agent-memory',
  local: 'agent-memory-local',
};

/**
 * The folder of an agent's memory: Claude Code's (`~/.claude/agent-memory/<name>/`,
 * `.claude/agent-memory/<name>/`, `.claude/agent-memory-local/<name>/`), or troupe's under
 * `.troupe/` instead of `.claude/` when that folder exists, so a team shares one memory between
 * both tools and can still keep troupe's apart.
 */
export function agentMemoryFolder(
  places: { cwd: string; home: string },
  agent: string,
  scope: AgentMemoryScope,
): string {
  const base = scope === 'user' ? places.home : places.cwd;
  const name = agent.replace(/[^a-z0-9_-]/gi, '-');
  const troupe = join(base, '.troupe', FOLDERS[scope], name);
  return existsSync(troupe) ? troupe : join(base, '.claude', FOLDERS[scope], name);
}

/** The memory tools: the workspace tools over the folder, renamed, with what they are for. */
const MEMORY_TOOLS: Record<string, string> = {
  read: 'memory_read',
  ls: 'memory_ls',
  write: 'memory_write',
  edit: 'memory_edit',
};

/**
 * Agent memory on the file system (`createRuntime({ memory })`): each agent's folder
 * ({@link agentMemoryFolder}) is made when a task of the agent starts; its `MEMORY.md` is read
 * then, and the agent gets `memory_read`, `memory_ls`, `memory_write` and `memory_edit`, core's
 * workspace tools confined to that folder (no path, `..` or symbolic link leaves it). A scope not
 * in `scopes` fails the memory (a warning; the task goes on without it).
 */
export function createAgentMemory(options: AgentMemoryOptions): AgentMemory {
  const places = { cwd: options.cwd, home: options.home };
  const allowed = new Set(options.scopes ?? ['user', 'project', 'local']);
  const tools = new Map<string, Promise<Tool[]>>();
  const folderOf = (request: AgentMemoryRequest) => {
    if (!allowed.has(request.scope))
      throw new Error(
        `${request.scope} memory is not available here (the project folder is not trusted); agent "${request.agent}" runs without it.`,
      );
    return agentMemoryFolder(places, request.agent, request.scope);
  };
  const toolsOf = (folder: string): Promise<Tool[]> => {
    let made = tools.get(folder);
    if (!made) {
      made = mkdir(folder, { recursive: true }).then(() => {
        const fileSystem = createNodeFileSystem(createWorkspace(folder));
        return createWorkspaceTools(fileSystem)
          .filter((tool) => tool.name in MEMORY_TOOLS)
          .map((tool) => ({
            ...tool,
            name: MEMORY_TOOLS[tool.name]!,
            description: `In your agent memory folder (${folder}), paths relative to it: ${tool.description}`,
          }));
      });
      made.catch(() => tools.delete(folder));
      tools.set(folder, made);
    }
    return made;
  };
  return {
    folder: folderOf,
    async readIndex(request) {
      const folder = folderOf(request);
      if (!existsSync(join(folder, 'MEMORY.md'))) return undefined;
      // Confined like the tools: a MEMORY.md that links out of the folder is refused.
      const path = await createWorkspace(folder).resolveExisting('MEMORY.md', 'memory');
      const handle = await open(path, 'r');
      try {
        const buffer = Buffer.alloc(MAX_INDEX_BYTES);
        const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
        return buffer.subarray(0, bytesRead).toString('utf8');
      } finally {
        await handle.close();
      }
    },
    tools: (request) => toolsOf(folderOf(request)),
  };
}
