import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { McpConfigError } from '../config/mcp-config-error.js';
import { parseMcpConfig } from '../config/parse-mcp-config.js';
import {
  describeServerCommand,
  type IgnoredMcpServer,
  type ProjectTrustOptions,
  projectVariablePolicy,
} from '../config/project-trust.js';
import type { McpServerEntry } from '../config/server-config.js';

/** Options of {@link loadMcpConfig}. */
export interface LoadMcpConfigOptions extends ProjectTrustOptions {
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
  /** The project's servers, not loaded because the project is not trusted (`trustProject`). */
  ignored: IgnoredMcpServer[];
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
 * shape). The project file is a repository's word: unless `trustProject` is set, its servers are
 * only listed in `ignored` (nothing of it runs), and when trusted its `${VAR}`s expand only the
 * variables in `projectVariables`. A server named in both comes from the project file; the
 * shadowed one is reported in `warnings`. Throws `McpConfigError` (of `@troupe/mcp`) naming the file for
 * invalid JSON or an unusable entry.
 */
export function loadMcpConfig(options: LoadMcpConfigOptions = {}): LoadedMcpConfig {
  const environment = options.environment ?? process.env;
  const { project, user } = mcpConfigFiles(options);
  const loaded: LoadedMcpConfig = { servers: [], warnings: [], files: [], ignored: [] };
  for (const file of project === user ? [user] : [project, user]) {
    if (!existsSync(file)) continue;
    const value = readJson(file);
    const fromProject = file === project && project !== user;
    if (fromProject && !options.trustProject) {
      loaded.ignored.push(...ignoredServers(value, file));
      continue;
    }
    const parsed = parseMcpConfig(value, {
      source: file,
      environment,
      variables: fromProject ? projectVariablePolicy(options) : { allow: 'all' },
    });
    loaded.files.push(file);
    loaded.warnings.push(...parsed.warnings);
    for (const entry of parsed.servers) {
      const first = loaded.servers.find((server) => server.name === entry.name);
      if (first)
        loaded.warnings.push(
          `MCP server "${entry.name}" in ${file} is shadowed by the one in ${first.source}.`,
        );
      else loaded.servers.push(entry);
    }
  }
  return loaded;
}

function readJson(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8').replace(/^\uFEFF/, ''));
  } catch (error) {
    throw new McpConfigError(`${file}: not valid JSON (${(error as Error).message}).`, { source: file });
  }
}

/** The servers of an untrusted project file, as written (never expanded). */
function ignoredServers(value: unknown, file: string): IgnoredMcpServer[] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return [];
  const servers = 'mcpServers' in value ? (value as { mcpServers: unknown }).mcpServers : value;
  if (servers === null || typeof servers !== 'object' || Array.isArray(servers)) return [];
  return Object.entries(servers).map(([name, raw]) => ({
    name,
    source: file,
    runs: describeServerCommand(raw),
  }));
}
