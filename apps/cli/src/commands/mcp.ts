import { UsageError } from '../errors.js';
import { EXIT } from '../exit-codes.js';
import type { CliContext } from '../io.js';
import { colorsFor } from '../render/colors.js';
import { mcpStatusLines } from '../render/mcp-status.js';
import { loadAgents } from '../setup/agents.js';
import { openMcp } from '../setup/mcp.js';
import { projectTrust } from '../setup/project-trust.js';
import { ignoredNotice } from '../setup/trust-report.js';

/** `troupe mcp list [--json]`: starts every configured MCP server, shows status and tools, stops them. */
export async function mcpCommand(context: CliContext): Promise<number> {
  const [sub = 'list', ...rest] = context.line.args;
  if (sub !== 'list' || rest.length)
    throw new UsageError(`Unknown mcp command "${[sub, ...rest].join(' ')}": use troupe mcp list.`);
  const places = { cwd: context.cwd, home: context.home, env: context.env };
  const registry = await loadAgents({ cwd: context.cwd, home: context.home });
  const trust = projectTrust({ ...places, flag: context.line.options.trustProject === true });
  const mcp = await openMcp(places, registry.list(), { listAll: true, trust });
  if (mcp.ignored.length)
    mcp.notices.unshift(ignoredNotice({ mcp: mcp.ignored, allow: [], settings: [] }, trust.folder));
  try {
    const servers = mcp.hub?.status() ?? [];
    if (context.line.options.json) {
      context.stdout.write(`${JSON.stringify({ servers, problems: mcp.notices }, null, 2)}\n`);
    } else {
      const colors = colorsFor(context.stdout, context.env);
      context.stdout.write(`${mcpStatusLines(servers, colors).join('\n')}\n`);
      for (const notice of mcp.notices.filter((text) => !/^MCP server "[^"]+" is unavailable/.test(text)))
        context.stderr.write(`${colors.yellow(notice)}\n`);
    }
    return servers.some((server) => server.state === 'failed') ? EXIT.error : EXIT.ok;
  } finally {
    await mcp.close();
  }
}
