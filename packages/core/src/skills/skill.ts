import type { AgentDefinition } from '../definitions/types.js';

/**
 * A skill (Claude Code's `.claude/skills/<name>/SKILL.md`): instructions an agent that lists it
 * in `skills` gets in full when it starts. A host loads them (`@troupe/node`'s `loadSkills` reads
 * the skill folders) and passes them as `createRuntime({ skills })`.
 */
export interface Skill {
  /** The name agents list it by (the front matter's `name`, else the folder's name). */
  name: string;
  description?: string;
  /** The skill's instructions (the Markdown body). */
  content: string;
  /** Where it was read from, for messages. */
  path?: string;
}

/** The most characters of one skill given to an agent; the rest is cut with a note. */
export const MAX_SKILL_CHARS = 40_000;

/** The skill names an agent lists (`skills` in its file). */
export function skillsOf(definition: AgentDefinition): string[] {
  return (definition.skills ?? []).map((name) => name.trim()).filter(Boolean);
}

/** A skill's text as an agent gets it: cut at {@link MAX_SKILL_CHARS} with a note naming where the rest is. */
export function skillText(skill: Skill): string {
  const content = skill.content.trim();
  const body =
    content.length <= MAX_SKILL_CHARS
      ? content
      : `${content.slice(0, MAX_SKILL_CHARS)}\n\n[The skill was cut here: ${(content.length - MAX_SKILL_CHARS).toLocaleString('en-US')} more characters${skill.path ? ` in ${skill.path}` : ''} were not loaded.]`;
  return `<skill name="${skill.name}">\n${body}\n</skill>`;
}

/**
 * The system prompt section that preloads an agent's skills (Claude Code gives a sub-agent the full
 * text of each skill it lists), and the names it lists that `skills` does not hold. Empty text when
 * the agent lists none.
 */
export function preloadSkills(
  definition: AgentDefinition,
  skills: ReadonlyMap<string, Skill>,
): { text: string; missing: string[] } {
  const names = skillsOf(definition);
  const missing: string[] = [];
  const texts: string[] = [];
  for (const name of new Set(names)) {
    const skill = skills.get(name);
    if (skill) texts.push(skillText(skill));
    else missing.push(name);
  }
  const text = texts.length
    ? `\n\n# Skills\nThese skills are loaded for you; follow them where they apply.\n\n${texts.join('\n\n')}`
    : '';
  return { text, missing };
}
