import { type AgentDefinition, parseAgentFile } from '@troupe/core';
import { createStore, del, entries, set } from 'idb-keyval';

// The built-in agents, the same Markdown files the CLI loads, bundled as text.
const BUILT_IN = import.meta.glob('../../../../agents/*.md', {
  query: '?raw',
  import: 'default',
  eager: true,
});

/** The user's agents live in their own IndexedDB database, never in the task store. */
const userAgents = createStore('troupe-web-agents', 'agents');

/** The built-in agent definitions. */
export function builtInAgents(): AgentDefinition[] {
  return Object.entries(BUILT_IN).map(([path, text]) => {
    const { definition } = parseAgentFile(text as string, { path: path.split('/').pop()! });
    return { ...definition, source: 'builtin' as const };
  });
}

/** The user's agent files, name → Markdown. */
export async function loadUserAgentFiles(): Promise<Map<string, string>> {
  return new Map((await entries<string, string>(userAgents)).map(([name, text]) => [name, text]));
}

/** Parses the user's stored agents, skipping (and reporting) any that no longer parse. */
export async function loadUserAgents(): Promise<AgentDefinition[]> {
  const definitions: AgentDefinition[] = [];
  for (const [name, text] of await loadUserAgentFiles()) {
    try {
      definitions.push({ ...parseAgentFile(text, { path: `${name}.md` }).definition, source: 'user' });
    } catch (error) {
      console.warn(`Agent ${name} does not parse:`, error);
    }
  }
  return definitions;
}

/** Stores a user agent under its name. */
export function saveUserAgent(name: string, text: string): Promise<void> {
  return set(name, text, userAgents);
}

/** Removes a user agent. */
export function deleteUserAgent(name: string): Promise<void> {
  return del(name, userAgents);
}
