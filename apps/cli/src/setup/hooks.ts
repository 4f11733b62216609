import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AgentDefinition, AgentRegistry, RuntimeHooks } from '@troupe/core';
import {
  createShellHooks,
  type HookConfig,
  hasHooks,
  readHookConfig,
  type ShellHooksOptions,
} from '@troupe/node';

/** The settings files whose `hooks` are read: the user's (always), then the project's (once trusted). */
export function hookSettingsFiles(places: {
  cwd: string;
  home: string;
}): { file: string; project: boolean }[] {
  const files = [
    { file: join(places.home, '.claude', 'settings.json'), project: false },
    { file: join(places.home, '.troupe', 'settings.json'), project: false },
    { file: join(places.cwd, '.claude', 'settings.json'), project: true },
    { file: join(places.cwd, '.claude', 'settings.local.json'), project: true },
    { file: join(places.cwd, '.troupe', 'settings.json'), project: true },
    { file: join(places.cwd, '.troupe', 'settings.local.json'), project: true },
  ];
  const seen = new Set<string>();
  // The home folder as a project: its files are the user's own.
  return files
    .filter((entry) => !seen.has(entry.file) && seen.add(entry.file))
    .map((entry) => (places.cwd === places.home ? { ...entry, project: false } : entry));
}

/** Hooks from the settings files and agent files, as far as the project is trusted. */
export interface HookSettings {
  /** Hooks for every agent, one config per settings file that has some, in order. */
  configs: HookConfig[];
  /** Malformed hook definitions, each naming its file and line. */
  problems: string[];
  /** Hooks an untrusted project brings that will not run: the file (or `agent <name>`) and its events. */
  ignored: { source: string; events: string[] }[];
  /**
   * URL patterns `http` hooks may POST to, from the user's own settings (`allowedHttpHookUrls`;
   * a project's never widens it). Undefined: loopback URLs only.
   */
  allowedHttpHookUrls?: string[];
}

function eventsOf(config: HookConfig): string[] {
  return Object.entries(config)
    .filter(([, matchers]) => matchers && matchers.length > 0)
    .map(
      ([event, matchers]) =>
        `${event} (${matchers!.reduce((count, entry) => count + entry.hooks.length, 0)})`,
    );
}

/**
 * Reads `hooks` from `~/.claude/settings.json`, `~/.troupe/settings.json` and the project's
 * `.claude/settings{,.local}.json` and `.troupe/settings{,.local}.json`, and the hooks of project
 * agents' files. An untrusted project's hooks are left out (listed in `ignored`). A file that is
 * not JSON, or a hook that cannot be used, is a problem naming the file (and line); never a throw.
 */
export async function loadHookSettings(
  places: { cwd: string; home: string },
  agents: readonly AgentDefinition[],
  trusted: boolean,
): Promise<HookSettings> {
  const settings: HookSettings = { configs: [], problems: [], ignored: [] };
  for (const { file, project } of hookSettingsFiles(places)) {
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch {
      continue; // a missing file has no hooks; one that cannot be read is reported where settings are read
    }
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch (error) {
      settings.problems.push(
        `${file}: not valid JSON (${(error as Error).message}); its hooks were not read.`,
      );
      continue;
    }
    const allowedUrls = (data as { allowedHttpHookUrls?: unknown } | null)?.allowedHttpHookUrls;
    if (allowedUrls !== undefined && !project) {
      if (Array.isArray(allowedUrls) && allowedUrls.every((url) => typeof url === 'string'))
        settings.allowedHttpHookUrls = [...(settings.allowedHttpHookUrls ?? []), ...allowedUrls];
      else
        settings.problems.push(
          `${file}: allowedHttpHookUrls must be a list of URL patterns; it was ignored.`,
        );
    }
    const hooks = (data as { hooks?: unknown } | null)?.hooks;
    if (hooks === undefined) continue;
    const { config, problems } = readHookConfig(hooks, file, { text });
    settings.problems.push(...problems.map((problem) => problem.message));
    if (!hasHooks(config)) continue;
    if (project && !trusted) settings.ignored.push({ source: file, events: eventsOf(config) });
    else settings.configs.push(config);
  }
  for (const agent of agents) {
    if (!agent.hooks) continue;
    const file = agent.path ?? `agent ${agent.name}`;
    const { config, problems } = readHookConfig(agent.hooks, file, { agentFile: true });
    if (agent.source === 'project' && !trusted) {
      if (hasHooks(config))
        settings.ignored.push({ source: `agent ${agent.name}`, events: eventsOf(config) });
      continue;
    }
    // The parser reported malformed entries (with their line); what is left is events troupe does not run.
    settings.problems.push(...problems.map((problem) => problem.message));
  }
  return settings;
}

/**
 * The runtime hooks of a CLI command: the settings' hooks for every agent, and each agent file's
 * own (its `Stop` runs as `SubagentStop`), except a project agent's when the project is not
 * trusted. Undefined when there are none (the runtime then skips every hook point).
 */
export function cliHooks(options: {
  cwd: string;
  settings: HookSettings;
  registry: AgentRegistry;
  trusted: boolean;
  passEnv?: readonly string[];
  /** The model `prompt` hooks ask (Claude Code asks a fast model). */
  promptHooks?: ShellHooksOptions['promptHooks'];
  onWarning: (message: string) => void;
}): RuntimeHooks | undefined {
  const agentConfigs = new Map<string, HookConfig | undefined>();
  const agentHooks = (agentType: string): HookConfig | undefined => {
    if (agentConfigs.has(agentType)) return agentConfigs.get(agentType);
    const definition = options.registry.get(agentType);
    const usable = definition?.hooks && (definition.source !== 'project' || options.trusted);
    const config = usable
      ? readHookConfig(definition.hooks, definition.path ?? definition.name, { agentFile: true }).config
      : undefined;
    agentConfigs.set(agentType, config);
    return config;
  };
  const anyAgentHooks = options.registry
    .list()
    .some((definition) => definition.hooks && (definition.source !== 'project' || options.trusted));
  if (!options.settings.configs.length && !anyAgentHooks) return undefined;
  return createShellHooks({
    cwd: options.cwd,
    settings: options.settings.configs,
    agentHooks,
    ...(options.passEnv ? { passEnv: options.passEnv } : {}),
    ...(options.promptHooks ? { promptHooks: options.promptHooks } : {}),
    ...(options.settings.allowedHttpHookUrls
      ? { allowedHttpHookUrls: options.settings.allowedHttpHookUrls }
      : {}),
    onWarning: options.onWarning,
  });
}
