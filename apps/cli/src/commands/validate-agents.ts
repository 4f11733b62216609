import { readdir, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { type AgentDefinition, createAgentRegistry } from '@troupe/core';
import { createNodeTools, readAgentFile } from '@troupe/node';
import { unknownToolFindings } from '../setup/unknown-tools.js';

/** What `troupe agents validate` found. */
export interface ValidationReport {
  /** Agent files read. */
  files: number;
  /** Names of the agents that load. */
  agents: string[];
  /** Files (or folders) that cannot be used, with where. */
  errors: Finding[];
  /** Loaded, but worth fixing: repaired YAML, unknown fields, unknown tools, duplicate names. */
  warnings: Finding[];
}

/** One finding; `message` starts with `file:line:` where known. */
interface Finding {
  message: string;
  file?: string;
  line?: number;
}

/** Agent files under a folder (any depth; README.md and dot files skipped), sorted. */
async function agentFilesIn(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter(
      (entry) => entry.isFile() && /\.(md|json)$/i.test(entry.name) && !/^readme\.md$/i.test(entry.name),
    )
    .map((entry) => join(entry.parentPath ?? (entry as { path?: string }).path ?? dir, entry.name))
    .filter(
      (file) =>
        !file
          .slice(dir.length)
          .split(/[\\/]/)
          .some((part) => part.startsWith('.')),
    )
    .sort();
}

/**
 * Checks agent files and folders (as `.claude/agents` holds them): every file that cannot be read
 * or parsed is an error naming the file and line; repairs, unknown fields, tools troupe does not
 * have and duplicate names are warnings. Loading goes on after each problem.
 */
export async function validateAgentPaths(
  paths: readonly string[],
  options: { cwd: string; collect?: AgentDefinition[] },
): Promise<ValidationReport> {
  const report: ValidationReport = { files: 0, agents: [], errors: [], warnings: [] };
  const files: string[] = [];
  for (const given of paths) {
    const path = resolve(options.cwd, given);
    try {
      const info = await stat(path);
      files.push(...(info.isDirectory() ? await agentFilesIn(path) : [path]));
    } catch (error) {
      report.errors.push({ message: `${path}: cannot read it (${(error as Error).message}).`, file: path });
    }
  }
  const registry = createAgentRegistry();
  const definitions: AgentDefinition[] = [];
  for (const file of files) {
    report.files++;
    const parsed = await readAgentFile(file);
    if (parsed instanceof Error) {
      report.errors.push({
        message: parsed.message.startsWith(file) ? parsed.message : `${file}: ${parsed.message}`,
        file,
        ...(parsed.line ? { line: parsed.line } : {}),
      });
      continue;
    }
    for (const warning of parsed.warnings) {
      report.warnings.push({
        message: warning.message,
        ...(warning.file ? { file: warning.file } : {}),
        ...(warning.line ? { line: warning.line } : {}),
      });
    }
    definitions.push({ ...parsed.definition, path: file, source: 'project' });
    try {
      registry.add(parsed.definition, 'project');
    } catch (error) {
      report.errors.push({ message: `${file}: ${(error as Error).message}`, file });
    }
  }
  options.collect?.push(...definitions);
  report.warnings.push(...(await unknownToolFindings(definitions, createNodeTools({ root: options.cwd }))));
  report.agents = registry.names();
  for (const shadowed of registry.shadowed()) report.warnings.push({ message: shadowed.message });
  return report;
}
