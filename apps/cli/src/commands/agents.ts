import type { AgentDefinition } from '@troupe/core';
import { createNodeTools, loadAgentDirectories } from '@troupe/node';
import { loadConfig } from '../config.js';
import { UsageError } from '../errors.js';
import { EXIT } from '../exit-codes.js';
import type { CliContext } from '../io.js';
import { agentDetailLines, agentListLines } from '../render/agent-details.js';
import { colorsFor } from '../render/colors.js';
import { type AgentPlaces, agentPlaces, loadAgents } from '../setup/agents.js';
import { projectTrust } from '../setup/project-trust.js';
import { unknownToolFindings } from '../setup/unknown-tools.js';
import { type ValidationReport, validateAgentPaths } from './validate-agents.js';
import { mcpFindings } from './validate-mcp.js';

/** `troupe agents list|show NAME|validate [PATHS...]`. */
export async function agentsCommand(context: CliContext): Promise<number> {
  const [sub = 'list', ...rest] = context.line.args;
  const colors = colorsFor(context.stdout, context.env);
  const json = context.line.options.json;
  const print = (lines: string[]) => context.stdout.write(`${lines.join('\n')}\n`);
  const trust = projectTrust({
    cwd: context.cwd,
    home: context.home,
    env: context.env,
    flag: context.line.options.trustProject === true,
  });
  const { config } = await loadConfig({ cwd: context.cwd, home: context.home, trustProject: trust.trusted });
  const places = agentPlaces(
    { cwd: context.cwd, home: context.home },
    context.line.options.agentsDirs,
    config.agentDirs,
  );
  switch (sub) {
    case 'list': {
      if (rest.length) throw new UsageError('troupe agents list takes no arguments.');
      const registry = await loadAgents(places);
      if (json) {
        print([
          JSON.stringify(
            registry.list().map((agent) => ({
              name: agent.name,
              description: agent.description,
              source: agent.source,
              path: agent.path,
              tools: agent.tools ?? ['*'],
              model: agent.model ?? 'inherit',
            })),
            null,
            2,
          ),
        ]);
      } else print(agentListLines(registry, colors));
      return EXIT.ok;
    }
    case 'show': {
      const name = rest[0];
      if (!name || rest.length > 1) throw new UsageError('Usage: troupe agents show NAME');
      const registry = await loadAgents(places);
      const definition = registry.require(name);
      print(json ? [JSON.stringify(definition, null, 2)] : agentDetailLines(definition, colors));
      return EXIT.ok;
    }
    case 'validate': {
      const definitions: AgentDefinition[] = [];
      const report: ValidationReport = rest.length
        ? await validateAgentPaths(rest, { cwd: context.cwd, collect: definitions })
        : await validateDefaultFolders(places, definitions);
      report.warnings.push(...(await mcpFindings(definitions, { ...places, env: context.env }, trust)));
      print(json ? [JSON.stringify(report, null, 2)] : reportLines(report, colors));
      return report.errors.length ? EXIT.error : EXIT.ok;
    }
    default:
      throw new UsageError(`Unknown agents command "${sub}": use list, show NAME or validate [PATHS...].`);
  }
}

async function validateDefaultFolders(
  places: AgentPlaces,
  collect: AgentDefinition[],
): Promise<ValidationReport> {
  const registry = await loadAgentDirectories({
    cwd: places.cwd,
    home: places.home,
    ...(places.extraDirs ? { extraDirs: places.extraDirs } : {}),
  });
  const agents = registry.list();
  collect.push(...agents);
  return {
    files: agents.filter((agent) => agent.path).length + registry.problems().length,
    agents: agents.map((agent) => agent.name),
    errors: registry.problems().map((problem) => ({
      message: problem.message,
      ...(problem.file ? { file: problem.file } : {}),
      ...(problem.line ? { line: problem.line } : {}),
    })),
    warnings: [
      ...registry.warnings().map((warning) => ({
        message: warning.message,
        ...(warning.file ? { file: warning.file } : {}),
        ...(warning.line ? { line: warning.line } : {}),
      })),
      ...(await unknownToolFindings(agents, createNodeTools({ root: places.cwd }))),
      ...registry.shadowed().map((shadowed) => ({ message: shadowed.message })),
    ],
  };
}

function reportLines(report: ValidationReport, colors: ReturnType<typeof colorsFor>): string[] {
  const lines = [
    ...report.errors.map((problem) => `${colors.red('error')}    ${problem.message}`),
    ...report.warnings.map((warning) => `${colors.yellow('warning')}  ${warning.message}`),
  ];
  const agents = report.agents.length;
  lines.push(
    `${report.files} file${report.files === 1 ? '' : 's'} checked: ${agents} agent${agents === 1 ? '' : 's'} usable, ${report.errors.length} error${report.errors.length === 1 ? '' : 's'}, ${report.warnings.length} warning${report.warnings.length === 1 ? '' : 's'}.`,
  );
  return lines;
}
