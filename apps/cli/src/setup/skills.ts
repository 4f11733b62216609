import type { AgentDefinition, AgentMemory, Skill } from '@troupe/core';
import { createAgentMemory, loadSkills } from '@troupe/node';

/** The skills a command's agents may list, as far as the project is trusted. */
export interface SkillSettings {
  skills: Skill[];
  /** Problems reading skill files, and agents listing skills that were not found (each naming the file). */
  notices: string[];
  /** An untrusted project's skills, left out (their files). */
  ignored: string[];
}

/**
 * Reads the skills of `.troupe/skills` and `.claude/skills` in the project (once trusted: a skill is
 * instructions someone else wrote) and in the home folder, and checks the skills each agent lists.
 */
export async function loadSkillSettings(
  places: { cwd: string; home: string },
  agents: readonly AgentDefinition[],
  trusted: boolean,
): Promise<SkillSettings> {
  const home = places.cwd === places.home;
  const loaded = await loadSkills({ ...places, project: trusted || home });
  const ignored: string[] = [];
  if (!trusted && !home) {
    const project = await loadSkills({ ...places, user: false });
    for (const skill of project.skills) ignored.push(skill.path ?? skill.name);
  }
  const names = new Set(loaded.skills.map((skill) => skill.name));
  const notices = [...loaded.warnings];
  for (const agent of agents) {
    const missing = (agent.skills ?? []).filter((name) => !names.has(name));
    if (missing.length)
      notices.push(
        `${agent.path ?? `agent ${agent.name}`}: skill${missing.length === 1 ? '' : 's'} ${missing.map((name) => `"${name}"`).join(', ')} not found in .troupe/skills or .claude/skills${ignored.length ? " (the project's skills are not loaded until you trust it)" : ''}; the agent runs without ${missing.length === 1 ? 'it' : 'them'}.`,
      );
  }
  return { skills: loaded.skills, notices, ignored };
}

/**
 * The memory tools that write, allowed without asking by the CLI's permission rules when an agent
 * has memory (a deny rule naming them still wins).
 */
export const MEMORY_WRITE_TOOLS = ['memory_write', 'memory_edit'] as const;

/** Agent memory for a command: the user's always; the project's (`project`, `local`) once trusted. */
export function cliMemory(places: { cwd: string; home: string }, trusted: boolean): AgentMemory {
  return createAgentMemory({
    ...places,
    scopes: trusted || places.cwd === places.home ? ['user', 'project', 'local'] : ['user'],
  });
}

/** Project agents whose memory (project or local) waits for trust: `name (scope)`. */
export function untrustedMemory(agents: readonly AgentDefinition[], trusted: boolean): string[] {
  if (trusted) return [];
  return agents
    .filter((agent) => agent.memory === 'project' || agent.memory === 'local')
    .map((agent) => `${agent.name} (${agent.memory})`);
}
