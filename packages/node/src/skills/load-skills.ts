import { open, readdir } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { parseAgentFile, type Skill } from '@troupe/core';

/** The most bytes of a `SKILL.md` read (core cuts what an agent gets further, with a note). */
const MAX_SKILL_FILE_BYTES = 1_000_000;

/** Where skills are read from, highest precedence first. */
export interface SkillPlaces {
  cwd: string;
  home: string;
  /** Read the project's skill folders (`.troupe/skills`, `.claude/skills` under `cwd`). Default true. */
  project?: boolean;
  /** Read the user's skill folders (under `home`). Default true. */
  user?: boolean;
}

/** The skill folders, highest precedence first: the project's, then the user's; `.troupe` before `.claude`. */
export function skillDirectories(places: SkillPlaces): { dir: string; source: 'project' | 'user' }[] {
  const dirs: { dir: string; source: 'project' | 'user' }[] = [];
  if (places.project !== false)
    dirs.push(
      { dir: join(places.cwd, '.troupe', 'skills'), source: 'project' },
      { dir: join(places.cwd, '.claude', 'skills'), source: 'project' },
    );
  if (places.user !== false)
    dirs.push(
      { dir: join(places.home, '.troupe', 'skills'), source: 'user' },
      { dir: join(places.home, '.claude', 'skills'), source: 'user' },
    );
  const seen = new Set<string>();
  return dirs.filter((entry) => !seen.has(entry.dir) && seen.add(entry.dir));
}

/** Skills found, what shadowed what, and files that could not be read well (each naming the file). */
export interface LoadedSkills {
  skills: Skill[];
  warnings: string[];
}

/**
 * Reads every `<folder>/<name>/SKILL.md` of the skill folders ({@link skillDirectories}): front
 * matter read like an agent file's (`name`, `description`), the body as the skill's content. A
 * skill's name is its front matter's `name`, else its folder's. The first folder holding a name
 * wins; a shadowed skill, a file without usable front matter (kept whole, named by its folder) or
 * one past 1 MB (cut) is a warning. A folder that does not exist is skipped.
 */
export async function loadSkills(places: SkillPlaces): Promise<LoadedSkills> {
  const skills = new Map<string, Skill>();
  const warnings: string[] = [];
  for (const { dir } of skillDirectories(places)) {
    let entries: string[];
    try {
      entries = (await readdir(dir, { withFileTypes: true }))
        .filter((entry) => entry.isDirectory() || entry.isSymbolicLink())
        .map((entry) => entry.name)
        .sort();
    } catch {
      continue;
    }
    for (const folder of entries) {
      const path = join(dir, folder, 'SKILL.md');
      const text = await readCapped(path, warnings);
      if (text === undefined) continue;
      const skill = skillOf(text, path, warnings);
      const earlier = skills.get(skill.name);
      if (earlier) {
        warnings.push(`${path}: skill "${skill.name}" is shadowed by ${earlier.path}; it was not loaded.`);
        continue;
      }
      skills.set(skill.name, skill);
    }
  }
  return { skills: [...skills.values()], warnings };
}

async function readCapped(path: string, warnings: string[]): Promise<string | undefined> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(path, 'r');
  } catch {
    return undefined; // a folder without SKILL.md is not a skill
  }
  try {
    const buffer = Buffer.alloc(MAX_SKILL_FILE_BYTES + 1);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    if (bytesRead > MAX_SKILL_FILE_BYTES)
      warnings.push(
        `${path}: larger than ${MAX_SKILL_FILE_BYTES.toLocaleString('en-US')} bytes; only that much was read.`,
      );
    return buffer.subarray(0, Math.min(bytesRead, MAX_SKILL_FILE_BYTES)).toString('utf8');
  } catch (error) {
    warnings.push(`${path}: cannot be read (${(error as Error).message}); the skill was not loaded.`);
    return undefined;
  } finally {
    await handle.close();
  }
}

function skillOf(text: string, path: string, warnings: string[]): Skill {
  const folder = basename(dirname(path));
  try {
    const { definition } = parseAgentFile(text, { path });
    const named = /^\s*name\s*:/m.test(text.split(/^---\s*$/m, 3)[1] ?? '');
    const skill: Skill = {
      name: named ? definition.name : folder,
      description: definition.description,
      content: definition.systemPrompt,
      path,
    };
    return skill;
  } catch (error) {
    warnings.push(`${(error as Error).message} The whole file is used as skill "${folder}".`);
    return { name: folder, content: text, path };
  }
}
