import { mkdir, readdir, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  type AgentDefinition,
  DefinitionError,
  isValidAgentName,
  normaliseAgentName,
  parseAgentFile,
} from '@troupe/core';
import { readAgentFile } from './load-agent-directories.js';

/** What `/agents create` writes. */
export interface CreateAgentFileOptions {
  /** Folder to write into (created if missing), e.g. `<project>/.troupe/agents`. */
  dir: string;
  /** Lowercase-with-hyphens; also the file name (`<name>.md`). */
  name: string;
  description: string;
  /** Allow-list; omit for every tool. */
  tools?: readonly string[];
  /** `inherit`, an alias or a model id; omit to inherit. */
  model?: string;
  color?: string;
  /** The system prompt (the Markdown body). */
  prompt: string;
  /**
   * Asked with the file's path and text once they are checked, before anything is written (a
   * preview for a person to confirm). When it answers false, nothing is written.
   */
  confirm?: (file: { path: string; text: string }) => boolean | Promise<boolean>;
}

/**
 * Writes `<dir>/<name>.md`: quoted YAML front matter plus the prompt, checked to parse back to the
 * same definition before it is written (and, with `confirm`, shown first). Resolves `written: false`
 * when `confirm` declined. Refuses (DefinitionError) a bad name, an empty
 * description, an existing file, or another file in `dir` that already defines `name`.
 */
export async function createAgentFile(
  options: CreateAgentFileOptions,
): Promise<{ path: string; definition: AgentDefinition; written: boolean }> {
  const { dir, name, description, tools, model, color, prompt } = options;
  if (typeof name !== 'string' || !isValidAgentName(name)) {
    const suggestion = typeof name === 'string' ? normaliseAgentName(name) : '';
    throw new DefinitionError(
      `Agent name ${JSON.stringify(name)} is invalid: use lowercase letters, digits and hyphens${suggestion ? `, e.g. '${suggestion}'` : ''}.`,
      { field: 'name' },
    );
  }
  if (typeof description !== 'string' || description.trim() === '') {
    throw new DefinitionError(`Agent '${name}' needs a description saying when to use it.`, {
      field: 'description',
    });
  }
  if (typeof prompt !== 'string' || prompt.trim() === '') {
    throw new DefinitionError(`Agent '${name}' needs a prompt: the instructions it runs with.`, {
      field: 'prompt',
    });
  }
  const path = join(dir, `${name}.md`);
  const lines = ['---', `name: ${quote(name)}`, `description: ${quote(description.trim())}`];
  if (tools !== undefined) lines.push(`tools: [${tools.map(quote).join(', ')}]`);
  if (model !== undefined) lines.push(`model: ${quote(model)}`);
  if (color !== undefined) lines.push(`color: ${quote(color)}`);
  lines.push('---', '', prompt.trim(), '');
  const text = lines.join('\n');

  const { definition, warnings } = parseAgentFile(text, { path });
  const expected = { name, description: description.trim(), tools, systemPrompt: prompt.trim() };
  if (
    warnings.length > 0 ||
    definition.name !== expected.name ||
    definition.description !== expected.description ||
    definition.systemPrompt !== expected.systemPrompt ||
    JSON.stringify(definition.tools) !==
      JSON.stringify(expected.tools === undefined ? undefined : [...expected.tools])
  ) {
    throw new DefinitionError(
      `${path}: the generated file does not read back as written${warnings.length ? ` (${warnings[0]!.message})` : ''}.`,
      { file: path },
    );
  }

  const existing = await findAgentFiles(dir, name);
  if (existing.length > 0) {
    throw new DefinitionError(`Agent '${name}' already exists in ${existing[0]}; refusing to overwrite it.`, {
      file: existing[0]!,
      field: 'name',
    });
  }
  if (options.confirm && !(await options.confirm({ path, text })))
    return { path, definition, written: false };
  await mkdir(dir, { recursive: true });
  try {
    await writeFile(path, text, { encoding: 'utf8', flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') {
      throw new DefinitionError(
        `${path} already exists; refusing to overwrite it.`,
        { file: path },
        { cause: error },
      );
    }
    throw error;
  }
  return { path, definition, written: true };
}

/**
 * Deletes the file in `dir` that defines agent `name` (`<name>.md` / `.json` first, else the one
 * file whose `name` field matches). Never deletes a file that defines another agent or cannot be
 * read as an agent. Throws DefinitionError (DEFINITION_NOT_FOUND) when no file defines it, and
 * when several do (naming them, so a person can choose).
 */
export async function deleteAgentFile(options: { dir: string; name: string }): Promise<{ path: string }> {
  const { dir, name } = options;
  const matches = await findAgentFiles(dir, name);
  const preferred = matches.filter((file) => baseName(file) === name.toLowerCase());
  const target = preferred.length === 1 ? preferred[0] : matches.length === 1 ? matches[0] : undefined;
  if (target === undefined) {
    throw new DefinitionError(
      matches.length === 0
        ? `No agent named '${name}' in ${dir}.`
        : `Several files in ${dir} define agent '${name}': ${matches.join(', ')}. Delete the one you mean by hand.`,
      { code: 'DEFINITION_NOT_FOUND', field: 'name' },
    );
  }
  await unlink(target);
  return { path: target };
}

/** Files directly in `dir` (.md, .json) that parse to an agent named `name` (case-insensitive). */
async function findAgentFiles(dir: string, name: string): Promise<string[]> {
  let entries: string[];
  try {
    entries = (await readdir(dir, { withFileTypes: true }))
      .filter((entry) => entry.isFile() && /\.(md|json)$/i.test(entry.name))
      .map((entry) => join(dir, entry.name))
      .sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const wanted = name.toLowerCase();
  const parsed = await Promise.all(
    entries.map(async (file) => ({ file, result: await readAgentFile(file) })),
  );
  return parsed
    .filter(({ result }) => !(result instanceof Error) && result.definition.name.toLowerCase() === wanted)
    .map(({ file }) => file);
}

function baseName(file: string): string {
  return (file.split(/[\\/]/).pop() ?? file).replace(/\.(md|json)$/i, '').toLowerCase();
}

/** A YAML double-quoted scalar. JSON string syntax is valid YAML (JSON.stringify never emits `\/`). */
function quote(value: string): string {
  return JSON.stringify(value);
}
