import { relative } from 'node:path';
import type { CliSettings } from './cli-runtime.js';
import type { McpSetup } from './mcp.js';

/** What {@link describeSetup} reads: the settings of a command and its MCP servers. */
export type DescribedSetup = Pick<
  CliSettings,
  'places' | 'trust' | 'settingsFiles' | 'permissions' | 'approvalChoice' | 'registry'
> & { mcp: Pick<McpSetup, 'hub' | 'ignored'> };

const TRUST_REASONS: Record<CliSettings['trust']['reason'], string> = {
  home: 'trusted: it is the home folder',
  flag: 'trusted: --trust-project',
  environment: 'trusted: TROUPE_TRUST_PROJECT=1',
  remembered: 'trusted: troupe trust',
  'not-trusted':
    'not trusted: its MCP servers, allow rules and widening settings are left out; `troupe trust` to use them',
};

/**
 * The lines a long-running entry point (`troupe worker`) prints at start: the project and its
 * trust, the settings files read, the approval mode, the allow and deny rules, the MCP servers and
 * the agents, so what governs its tasks can be checked against `troupe run` in the same folder.
 * `approvalMeaning` says what the mode means where it runs (for a worker, `ask` waits for a client).
 */
export function describeSetup(
  setup: DescribedSetup,
  approvalMeaning: Partial<Record<'ask' | 'auto' | 'deny', string>> = {},
): string[] {
  const { places } = setup;
  const shown = (file: string) => {
    const inHome = relative(places.home, file);
    const inProject = relative(places.cwd, file);
    if (!inProject.startsWith('..')) return inProject;
    if (!inHome.startsWith('..')) return `~/${inHome}`;
    return file;
  };
  const list = (items: readonly string[]) => (items.length ? items.join(', ') : 'none');
  const { allow, deny } = setup.permissions.rules();
  const mode = setup.approvalChoice.mode;
  const servers = (setup.mcp.hub?.status() ?? []).map(
    (server) => `${server.name} (${server.type}, ${shown(server.source)})`,
  );
  const ignored = setup.mcp.ignored.map((server) => `${server.name} (ignored: project not trusted)`);
  const agents = setup.registry.list().map((agent) => agent.name);
  return [
    `  project: ${setup.trust.folder} (${TRUST_REASONS[setup.trust.reason]})`,
    `  settings: ${list(setup.settingsFiles.map(shown))}`,
    `  approval: ${mode}${approvalMeaning[mode] ? ` (${approvalMeaning[mode]})` : ''}`,
    `  allow rules: ${list(allow.map((rule) => rule.text))}`,
    `  deny rules: ${list(deny.map((rule) => rule.text))}`,
    `  MCP servers: ${list([...servers, ...ignored])}`,
    `  agents: ${agents.length} (${agents.join(', ')})`,
  ];
}
