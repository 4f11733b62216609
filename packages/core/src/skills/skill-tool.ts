import * as v from 'valibot';
import { defineTool, type Tool } from '../tools/define-tool.js';
import { type Skill, skillText } from './skill.js';

/** The most characters of one skill's description shown in the `skill` tool's list. */
const MAX_LISTED_DESCRIPTION = 300;

/**
 * Claude Code's `Skill` tool, for a session's main agent: its description lists every skill the
 * runtime was given (name and description, as Claude Code puts the skills' descriptions in the main
 * session's context), and a call `{ skill }` returns that skill's full text (cut at
 * `MAX_SKILL_CHARS` with a note). A read tool: it runs without approval, and its answer is journaled
 * like any tool result, so replay never reads the skill again. Undefined when there is no skill.
 */
export function createSkillTool(skills: ReadonlyMap<string, Skill>): Tool | undefined {
  if (skills.size === 0) return undefined;
  const listed = [...skills.values()]
    .sort((a, b) => a.name.localeCompare(b.name))
    .map((skill) => {
      const description = (skill.description ?? '').replace(/\s+/g, ' ').trim();
      const cut =
        description.length > MAX_LISTED_DESCRIPTION
          ? `${description.slice(0, MAX_LISTED_DESCRIPTION)}…`
          : description;
      return `- ${skill.name}${cut ? `: ${cut}` : ''}`;
    });
  return defineTool({
    name: 'skill',
    description: `Loads a skill: instructions for a kind of task, written for this project or this user. When a request matches a skill's description, load that skill first and follow it. Skills available:\n${listed.join('\n')}`,
    access: 'read',
    input: v.object({
      skill: v.pipe(v.string(), v.minLength(1), v.description('The name of the skill to load.')),
    }),
    execute: ({ skill: name }) => {
      const skill =
        skills.get(name.trim()) ??
        [...skills.values()].find((each) => each.name.toLowerCase() === name.trim().toLowerCase());
      if (!skill)
        throw new Error(`No skill named "${name}". The skills are: ${[...skills.keys()].sort().join(', ')}.`);
      return skillText(skill);
    },
  });
}
