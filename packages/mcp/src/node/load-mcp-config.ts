import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { McpConfigError } from '../config/mcp-config-error.js';
import { parseMcpConfig } from '../config/parse-mcp-config.js';
import type { McpServerEntry } from '../config/server-config.js';

/** Options of {@link loadMcpConfig}. */
export interface LoadMcpConfigOptions {
  /** Project directory holding `.mcp.json`. Default: the current directory. */
  cwd?: string;
  /** Home directory holding `.troupe/mcp.json`. Default: the user's home. */
  home?: string;
  /** Variables for `${VAR}` expansion. Default: `process.env`. */
  environment?: Readonly<Record<string, string | undefined>>;
}

/** What {@link loadMcpConfig} found. */
export interface LoadedMcpConfig {
  servers: McpServerEntry[];
  warnings: string[];
  /** The files read, project first. */
  files: string[];
}

/** The project file (`.mcp.json`, as Claude Code) and the user file (`~/.troupe/mcp.json`). */
export function mcpConfigFiles(options: LoadMcpConfigOptions = {}): { project: string; user: string } {
  return {
    project: join(options.cwd ?? process.cwd(), '.mcp.json'),
    user: join(options.home ?? homedir(), '.troupe', 'mcp.json'),
  };
}

/**
 * Reads the project's `.mcp.json` and the user's `~/.troupe/mcp.json` (both optional; same
 * shape). A server named in both comes from the project file; the shadowed one is reported in
 * `warnings`. Throws {@link McpConfigError} naming the file for invalid JSON or an unusable entry.
 */
export function loadMcpConfig(options: LoadMcpConfigOptions = {}): LoadedMcpConfig {
  const environment = options.environment ?? process.env;
  const { project, user } = mcpConfigFiles(options);
  const servers: McpServerEntry[] = [];
  const warnings: string[] = [];
  const files: string[] = [];
  for (const file of [project, user]) {
    if (!existsSync(file)) continue;
    let value: unknown;
    try {
      value = JSON.parse(readFileSync(file, 'utf8').replace(/^\uFEFF/, ''));
    } catch (error) {
      throw new McpConfigError(`${file}: not valid JSON (${(error as Error).message}).`, { source: file });
    }
    const parsed = parseMcpConfig(value, { source: file, environment });
    files.push(file);
    warnings.push(...parsed.warnings);
    for (const entry of parsed.servers) {
      const first = servers.find((server) => server.name === entry.name);
      if (first)
        warnings.push(`MCP server "${entry.name}" in ${file} is shadowed by the one in ${first.source}.`);
      else servers.push(entry);
    }
  }
  return { servers, warnings, files };
}
