import type { AgentDefinition, AgentRegistry } from '@troupe/core';
import type { Colors } from './colors.js';
import { renderTable } from './table.js';
import { indent } from './text.js';

/** `read, grep` or `all tools` (minus the deny-list). */
function toolsText(definition: AgentDefinition): string {
  const allowed =
    !definition.tools || definition.tools.includes('*') ? 'all tools' : definition.tools.join(', ');
  return definition.disallowedTools?.length
    ? `${allowed} except ${definition.disallowedTools.join(', ')}`
    : allowed;
}

/** Where a definition came from: `project (.troupe/agents/x.md)`, `built-in`. */
function sourceText(definition: AgentDefinition): string {
  const source = definition.source === 'builtin' ? 'built-in' : (definition.source ?? 'code');
  return source;
}

/** The lines of `agents list` and `/agents`: a table, then shadowed agents and problems. */
export function agentListLines(registry: AgentRegistry, colors: Colors): string[] {
  const agents = registry.list();
  const lines = renderTable(
    [{ header: 'NAME' }, { header: 'SOURCE' }, { header: 'MODEL' }, { header: 'TOOLS' }],
    agents.map((agent) => [agent.name, sourceText(agent), agent.model ?? 'inherit', toolsText(agent)]),
    { header: colors.bold },
  );
  for (const shadowed of registry.shadowed()) lines.push(colors.dim(`note: ${shadowed.message}`));
  const problems = registry.problems();
  if (problems.length) {
    lines.push(
      colors.yellow(
        `${problems.length} agent file${problems.length === 1 ? '' : 's'} could not be loaded: run \`troupe agents validate\`.`,
      ),
    );
  }
  return lines;
}

/** The lines of `agents show NAME`: every field, then the prompt. */
export function agentDetailLines(definition: AgentDefinition, colors: Colors): string[] {
  const fields: [string, string | undefined][] = [
    ['name', definition.name],
    ['description', definition.description],
    ['source', sourceText(definition)],
    ['file', definition.path],
    ['tools', toolsText(definition)],
    ['model', definition.model ?? 'inherit'],
    ['maxTurns', definition.maxTurns?.toString()],
    ['timeout', definition.timeoutMs === undefined ? undefined : `${definition.timeoutMs} ms`],
    ['tokenBudget', definition.tokenBudget?.toString()],
    ['background', definition.background ? 'yes' : undefined],
    ['forkContext', definition.forkContext ? 'yes' : undefined],
    ['color', definition.color],
    ['inputSchema', definition.inputSchema ? JSON.stringify(definition.inputSchema) : undefined],
    ['outputSchema', definition.outputSchema ? JSON.stringify(definition.outputSchema) : undefined],
  ];
  const lines = fields
    .filter((field): field is [string, string] => field[1] !== undefined)
    .map(([key, value]) => `${colors.bold(`${key}:`)} ${value}`);
  if (definition.extra && Object.keys(definition.extra).length) {
    lines.push(`${colors.bold('other fields:')} ${Object.keys(definition.extra).join(', ')}`);
  }
  lines.push('', colors.bold('prompt:'), indent(definition.systemPrompt.trimEnd() || '(empty)', '  '));
  return lines;
}
