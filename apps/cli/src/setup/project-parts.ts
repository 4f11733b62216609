import { type CliConfig, loadConfig } from '../config.js';
import type { CliContext } from '../io.js';
import { type AgentPlaces, agentPlaces, loadAgents } from './agents.js';
import { type HookSettings, loadHookSettings } from './hooks.js';
import { mcpServers, usesMcp } from './mcp.js';
import { loadPermissionSettings, type PermissionSettings } from './permissions.js';
import type { ProjectTrust } from './project-trust.js';
import { loadSkillSettings, type SkillSettings, untrustedMemory } from './skills.js';
import type { UntrustedParts } from './trust-report.js';

/** The config, agents and permission rules of a command, as far as the project is trusted. */
export interface ProjectParts {
  config: CliConfig;
  agentsAt: AgentPlaces;
  registry: Awaited<ReturnType<typeof loadAgents>>;
  permissions: PermissionSettings;
  /** The config and settings files read (`config.json`, `settings.json`, `settings.local.json`), user's first. */
  settingsFiles: string[];
  /** Hooks of the settings files and agent files, as far as trusted. */
  hooks: HookSettings;
  /** Skills of the skill folders, as far as trusted. */
  skills: SkillSettings;
  /** What the project brings that was left out (empty when trusted). */
  untrusted: UntrustedParts;
}

/**
 * Reads the config files, the agent folders and the permission settings under `trust`; for an
 * untrusted folder, also lists its MCP servers that will not run (no server is started).
 */
export async function loadProjectParts(
  context: Pick<CliContext, 'cwd' | 'home' | 'env' | 'line'>,
  trust: Pick<ProjectTrust, 'trusted' | 'projectVariables'>,
): Promise<ProjectParts> {
  const places = { cwd: context.cwd, home: context.home };
  const { config, files, ignored } = await loadConfig({ ...places, trustProject: trust.trusted });
  const agentsAt = agentPlaces(places, context.line.options.agentsDirs, config.agentDirs);
  const registry = await loadAgents(agentsAt);
  const permissions = await loadPermissionSettings({ ...places, trustProject: trust.trusted });
  const agents = registry.list();
  const hooks = await loadHookSettings(places, agents, trust.trusted);
  const skills = await loadSkillSettings(places, agents, trust.trusted);
  const servers =
    !trust.trusted && usesMcp({ ...places, env: context.env }, agents)
      ? await mcpServers({ ...places, env: context.env }, agents, trust)
      : undefined;
  return {
    config,
    agentsAt,
    registry,
    permissions,
    settingsFiles: [...new Set([...files, ...permissions.files])],
    hooks,
    skills,
    untrusted: {
      mcp: servers?.ignored ?? [],
      allow: permissions.ignoredAllow,
      settings: ignored,
      hooks: hooks.ignored,
      skills: skills.ignored,
      memory: untrustedMemory(agents, trust.trusted),
    },
  };
}
