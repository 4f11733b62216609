import { open, realpath, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import {
  type AgentDefinition,
  type AgentRegistry,
  type AgentSource,
  createAgentRegistry,
  DefinitionError,
  type ParsedAgent,
} from '@troupe/core';
import { parseAgentSource } from '@troupe/core/internal';
import { BUILTIN_AGENTS_DIR } from './builtin-agents-dir.js';
import { walkAgentFolder } from './walk-agent-folder.js';

/** A folder of agent files and the source its definitions count as. */
export interface AgentDirectory {
  dir: string;
  source: AgentSource;
}

/** Options of {@link loadAgentDirectories}. */
export interface LoadAgentDirectoriesOptions {
  /** Project root: `.troupe/agents/` and `.claude/agents/` are read under it. */
  cwd: string;
  /** User home: `.troupe/agents/` and `.claude/agents/` are read under it. */
  home: string;
  /** Built-in agents folder; default {@link BUILTIN_AGENTS_DIR}; `false` for none. */
  builtinDir?: string | false;
  /** Definitions from code: they win over every file. */
  agents?: readonly AgentDefinition[];
  /** Extra name aliases for the registry (alias → name). */
  aliases?: Readonly<Record<string, string>>;
  /**
   * More project folders of agent files, read after `.troupe/agents` and `.claude/agents` (relative
   * paths are under `cwd`), for projects laid out for other sub-agent systems: `.agent/agents`,
   * `.blade/agents`, `.mini-cc/agents` (JSON files).
   */
  extraDirs?: readonly string[];
}

/**
 * The folders read, highest precedence first: project (`.troupe`, `.claude`, then `extraDirs`),
 * user, built-in.
 */
export function agentDirectories(
  options: Pick<LoadAgentDirectoriesOptions, 'cwd' | 'home' | 'builtinDir' | 'extraDirs'>,
): AgentDirectory[] {
  const dirs: AgentDirectory[] = [
    { dir: join(options.cwd, '.troupe', 'agents'), source: 'project' },
    { dir: join(options.cwd, '.claude', 'agents'), source: 'project' },
    ...(options.extraDirs ?? []).map((dir) => ({
      dir: resolve(options.cwd, dir),
      source: 'project' as const,
    })),
    { dir: join(options.home, '.troupe', 'agents'), source: 'user' },
    { dir: join(options.home, '.claude', 'agents'), source: 'user' },
  ];
  const builtin = options.builtinDir ?? BUILTIN_AGENTS_DIR;
  if (builtin !== false) dirs.push({ dir: builtin, source: 'builtin' });
  return dirs;
}

/**
 * Builds an agent registry from code definitions and the agent folders (see
 * {@link agentDirectories}), reading `*.md` and `*.json` files at any depth (README.md and dot
 * files skipped). A missing folder is skipped silently. A file that cannot be read or parsed is
 * recorded in `registry.problems()` and loading goes on; parse warnings are in
 * `registry.warnings()`; a definition hidden by a higher source is in `registry.shadowed()`.
 * When `cwd` is `home`, each folder is read once, as project.
 */
export async function loadAgentDirectories(options: LoadAgentDirectoriesOptions): Promise<AgentRegistry> {
  const registry = createAgentRegistry(options.aliases === undefined ? {} : { aliases: options.aliases });
  for (const definition of options.agents ?? []) {
    try {
      registry.add(definition, 'code');
    } catch (error) {
      registry.addProblem(asProblem(error, definition.path), 'code');
    }
  }
  const seen = new Set<string>();
  for (const { dir, source } of agentDirectories(options)) {
    const files = await listAgentFiles(dir, source, registry, seen);
    const parsed = await Promise.all(files.map((file) => readAgentFile(file)));
    for (const result of parsed) {
      if (result instanceof Error) {
        registry.addProblem(asProblem(result), source);
        continue;
      }
      registry.addWarnings(result.warnings);
      try {
        registry.add(result.definition, source);
      } catch (error) {
        registry.addProblem(asProblem(error, result.definition.path), source);
      }
    }
  }
  return registry;
}

/** Largest agent file read (bytes); larger ones are reported, not read. */
export const MAX_AGENT_FILE_BYTES = 1024 * 1024;

/** Reads and parses one agent file; returns the error (a DefinitionError naming the file) instead of throwing. */
export async function readAgentFile(file: string): Promise<ParsedAgent | DefinitionError> {
  let text: string;
  try {
    const handle = await open(file, 'r');
    try {
      const { size } = await handle.stat();
      if (size > MAX_AGENT_FILE_BYTES)
        return new DefinitionError(
          `${file}: the file is larger than ${MAX_AGENT_FILE_BYTES / 1024} KiB (${size} bytes); an agent file is a prompt, not data. Not loaded.`,
          { file },
        );
      text = await handle.readFile('utf8');
    } finally {
      await handle.close();
    }
  } catch (error) {
    return new DefinitionError(
      `${file}: cannot read the file (${(error as Error).message}).`,
      { file },
      { cause: error },
    );
  }
  try {
    return parseAgentSource(text, { path: file });
  } catch (error) {
    return asProblem(error, file);
  }
}

async function listAgentFiles(
  dir: string,
  source: AgentSource,
  registry: AgentRegistry,
  seen: Set<string>,
): Promise<string[]> {
  let real: string;
  try {
    const info = await stat(dir);
    if (!info.isDirectory()) {
      registry.addProblem(
        { message: `${dir}: expected a folder of agent files, found a file.`, file: dir },
        source,
      );
      return [];
    }
    real = await realpath(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    registry.addProblem(
      { message: `${dir}: cannot read the folder (${(error as Error).message}).`, file: dir },
      source,
    );
    return [];
  }
  if (seen.has(real)) return [];
  seen.add(real);
  try {
    const { files, problems } = await walkAgentFolder(dir, real);
    for (const problem of problems) registry.addProblem(problem, source);
    return files;
  } catch (error) {
    registry.addProblem(
      { message: `${dir}: cannot list the folder (${(error as Error).message}).`, file: dir },
      source,
    );
    return [];
  }
}

function asProblem(error: unknown, file?: string): DefinitionError {
  if (error instanceof DefinitionError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new DefinitionError(
    `${file === undefined ? '' : `${file}: `}${message}`,
    file === undefined ? {} : { file },
    { cause: error },
  );
}
