import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AgentDefinition, ParsedAgent } from '@troupe/core';
import { type Plugin, runnerImport } from 'vite';

/** The module id the app imports the built-in agents from. */
export const BUILT_IN_AGENTS_MODULE = 'virtual:troupe-built-in-agents';

const agentsDir = fileURLToPath(new URL('../../agents/', import.meta.url));
const parserFile = fileURLToPath(
  new URL('../../packages/core/src/definitions/parse-agent-file.ts', import.meta.url),
);

/**
 * Parses the repository's `agents/*.md` (the same files the CLI loads) at build time with core's
 * own `parseAgentFile`, and serves the definitions as `virtual:troupe-built-in-agents`. The page
 * then needs no YAML parser at start: the parser loads with the agents editor, or when the user
 * has agents of their own. A built-in agent that does not parse fails the build, naming the file.
 */
export function builtInAgentsPlugin(): Plugin {
  const resolved = `\0${BUILT_IN_AGENTS_MODULE}`;
  return {
    name: 'troupe-built-in-agents',
    resolveId: (id) => (id === BUILT_IN_AGENTS_MODULE ? resolved : undefined),
    async load(id) {
      if (id !== resolved) return undefined;
      const { module } = await runnerImport<{
        parseAgentFile(text: string, options: { path: string }): ParsedAgent;
      }>(parserFile, {
        configFile: false,
        logLevel: 'silent',
        // runnerImport runs the parser in its own `inline` environment (conditions `node`, ...): the
        // `source` condition resolves core's own `#` imports to its source files, as in the app.
        environments: { inline: { resolve: { conditions: ['source'] } } },
      });
      const definitions: AgentDefinition[] = [];
      for (const file of readdirSync(agentsDir)
        .filter((name) => name.endsWith('.md'))
        .sort()) {
        const path = join(agentsDir, file);
        this.addWatchFile(path);
        const { definition } = module.parseAgentFile(readFileSync(path, 'utf8'), { path: file });
        definitions.push({ ...definition, source: 'builtin' });
      }
      return `export default ${JSON.stringify(JSON.stringify(definitions))};`;
    },
  };
}
