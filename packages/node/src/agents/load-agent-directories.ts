import { lstat, open, realpath, stat } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import {
  type AgentDefinition,
  type AgentRegistry,
  type AgentSource,
  createAgentRegistry,
  DefinitionError,
  type ParsedAgent,
} from '@troupe/core';
import { parseAgentSource } from '@troupe/core/internal';
import { BUILTIN_AGENT_FILES } from './builtin-agent-files.js';
import { walkAgentFolder } from './walk-agent-folder.js';

/** A folder of agent files and the source its definitions count as. */
export interface AgentDirectory {
  dir: string;
  source: AgentSource;
  /**
   * The folder `dir` must stay in once links are resolved (the project for project folders, the
   * home folder for user folders): a `dir` inside it lexically that leads out of it through a
   * link is not read. Absent: no such check (the built-in folder, a folder the host names outside).
   */
  base?: string;
}

/** Options of {@link loadAgentDirectories}. */
export interface LoadAgentDirectoriesOptions {
  /** Project root: `.troupe/agents/` and `.claude/agents/` are read under it. */
  cwd: string;
  /** User home: `.troupe/agents/` and `.claude/agents/` are read under it. */
  home: string;
  /**
   * Built-in agents: default the ones shipped inside this package as data
   * ({@link BUILTIN_AGENT_FILES}, definitions with the path `builtin:<file>`); a folder to read
   * instead; `false` for none.
   */
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

/** Whether `path` is `folder` or below it (both absolute and resolved the same way). */
function isWithin(path: string, folder: string): boolean {
  const below = relative(folder, path);
  return below === '' || (below !== '..' && !below.startsWith(`..${sep}`) && !isAbsolute(below));
}

/**
 * The folders read, highest precedence first: project (`.troupe`, `.claude`, then `extraDirs`),
 * user, and the built-in folder when `builtinDir` names one (by default the built-in agents are
 * data in the package, read after these folders).
 */
export function agentDirectories(
  options: Pick<LoadAgentDirectoriesOptions, 'cwd' | 'home' | 'builtinDir' | 'extraDirs'>,
): AgentDirectory[] {
  const project = resolve(options.cwd);
  const home = resolve(options.home);
  const dirs: AgentDirectory[] = [
    { dir: join(options.cwd, '.troupe', 'agents'), source: 'project', base: project },
    { dir: join(options.cwd, '.claude', 'agents'), source: 'project', base: project },
    ...(options.extraDirs ?? []).map((dir) => {
      const absolute = resolve(options.cwd, dir);
      return isWithin(absolute, project)
        ? { dir: absolute, source: 'project' as const, base: project }
        : { dir: absolute, source: 'project' as const };
    }),
    { dir: join(options.home, '.troupe', 'agents'), source: 'user', base: home },
    { dir: join(options.home, '.claude', 'agents'), source: 'user', base: home },
  ];
  if (typeof options.builtinDir === 'string') dirs.push({ dir: options.builtinDir, source: 'builtin' });
  return dirs;
}

/**
 * Builds an agent registry from code definitions and the agent folders (see
 * {@link agentDirectories}), reading `*.md` and `*.json` files at any depth (README.md and dot
 * files skipped). A missing folder is skipped silently. A file that cannot be read or parsed is
 * recorded in `registry.problems()` and loading goes on; parse warnings are in
 * `registry.warnings()`; a definition hidden by a higher source is in `registry.shadowed()`.
 * When `cwd` is `home`, each folder is read once, as project. A project folder that leads out of
 * the project through a link (`.claude/agents -> /`, or `.claude` itself a link), or a user folder
 * that leads out of the home folder, is not read: a problem names it and where it leads.
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
  for (const directory of agentDirectories(options)) {
    const { source } = directory;
    const files = await listAgentFiles(directory, registry, seen);
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
  if (options.builtinDir === undefined) addBuiltinAgents(registry);
  return registry;
}

/** Adds the built-in agents shipped as data; one that fails is a problem, as for a file. */
function addBuiltinAgents(registry: AgentRegistry): void {
  for (const { file, text } of BUILTIN_AGENT_FILES) {
    const path = `builtin:${file}`;
    try {
      const parsed = parseAgentSource(text, { path });
      registry.addWarnings(parsed.warnings);
      registry.add(parsed.definition, 'builtin');
    } catch (error) {
      registry.addProblem(asProblem(error, path), 'builtin');
    }
  }
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
  { dir, source, base }: AgentDirectory,
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
  const leadsOut = base === undefined ? undefined : await linkOutOf(dir, real, base, source);
  if (leadsOut !== undefined) {
    // `field: 'link'`: a folder skipped on purpose, not one that failed (hosts may go on without it).
    registry.addProblem({ message: leadsOut, file: dir, field: 'link' }, source);
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

/**
 * Why the folder `dir` (real path `real`) is not read because it leads out of `base` through a
 * link, or `undefined` when it stays inside.
 */
async function linkOutOf(
  dir: string,
  real: string,
  base: string,
  source: AgentSource,
): Promise<string | undefined> {
  let realBase: string;
  try {
    realBase = await realpath(base);
  } catch {
    realBase = base;
  }
  if (isWithin(real, realBase)) return undefined;
  const isLink = await lstat(dir).then(
    (info) => info.isSymbolicLink(),
    () => false,
  );
  const where = source === 'project' ? `the project (${base})` : `the home folder (${base})`;
  return `${dir}: ${isLink ? 'is a link' : 'leads through a link'} to ${real}, outside ${where}; not followed. Agent folders are read only inside ${source === 'project' ? 'the project' : 'the home folder'}: copy the files in, or link to a folder inside it.`;
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
