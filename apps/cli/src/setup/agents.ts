import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { AgentRegistry, Tool } from '@troupe/core';
import { agentDirectories, loadAgentDirectories } from '@troupe/node';
import { CliError } from '../errors.js';
import { unknownToolFindings } from './unknown-tools.js';

/** Where agents are read from: the project, the user's home, and extra project folders. */
export interface AgentPlaces {
  cwd: string;
  home: string;
  /** More agent folders (`--agents-dir`, `agentDirs` in the config file), relative to `cwd`. */
  extraDirs?: readonly string[];
}

/**
 * The agent places of a command: `--agents-dir` folders (in order), then the config file's
 * `agentDirs`. A folder named there that does not exist is a {@link CliError}.
 */
export function agentPlaces(
  places: { cwd: string; home: string },
  flags: readonly string[] | undefined,
  configured: readonly string[] | undefined,
): AgentPlaces {
  const extraDirs = [...(flags ?? []), ...(configured ?? [])].map((dir) =>
    dir === '~' || dir.startsWith('~/') ? join(places.home, dir.slice(1)) : resolve(places.cwd, dir),
  );
  for (const dir of extraDirs) {
    if (!existsSync(dir))
      throw new CliError(
        `The agents folder ${dir} does not exist (from --agents-dir or agentDirs in the config file).`,
      );
  }
  return extraDirs.length ? { ...places, extraDirs: [...new Set(extraDirs)] } : places;
}

/**
 * The agent registry of a project: `.troupe/agents` and `.claude/agents` in the project and in the
 * home folder, then the built-in agents. Files that cannot be used are kept as problems (see
 * {@link agentProblemsNotice}); a folder that exists but cannot be read is a {@link CliError}.
 */
export async function loadAgents(places: AgentPlaces): Promise<AgentRegistry> {
  const registry = await loadAgentDirectories({
    cwd: places.cwd,
    home: places.home,
    ...(places.extraDirs ? { extraDirs: places.extraDirs } : {}),
  });
  const folders = new Set(agentDirectories(places).map((entry) => entry.dir));
  // A folder that cannot be read stops the command; one skipped because it links out of its place
  // (a cloned repository's `.claude/agents -> /`) is a notice (see agentNotices).
  const folderProblem = registry
    .problems()
    .find((problem) => problem.file && folders.has(problem.file) && problem.field !== 'link');
  if (folderProblem) throw new CliError(folderProblem.message);
  return registry;
}

/** One line about agent files that could not be loaded, or undefined when all loaded. */
function agentProblemsNotice(registry: AgentRegistry): string | undefined {
  const count = registry.problems().filter((problem) => problem.field !== 'link').length;
  if (count === 0) return undefined;
  return `${count} agent file${count === 1 ? '' : 's'} could not be loaded (run \`troupe agents validate\` for details).`;
}

/**
 * What a session or `run` says about its agents at start: files that could not be loaded (one
 * line), tool lists that had to be repaired, and tools an agent lists that troupe does not have
 * (each with its file and line), so that no tool is lost silently.
 */
export async function agentNotices(registry: AgentRegistry, tools: readonly Tool[]): Promise<string[]> {
  const notices: string[] = [];
  const problems = agentProblemsNotice(registry);
  if (problems) notices.push(problems);
  for (const problem of registry.problems()) if (problem.field === 'link') notices.push(problem.message);
  for (const warning of registry.warnings()) {
    if (warning.field === 'tools' || warning.field === 'disallowedTools') notices.push(warning.message);
  }
  for (const finding of await unknownToolFindings(registry.list(), tools)) notices.push(finding.message);
  return notices;
}
