import builtInJson from 'virtual:troupe-built-in-agents';
import type { AgentDefinition } from '@troupe/core';
import { createStore, del, entries, set } from 'idb-keyval';

/** The user's agents live in their own IndexedDB database, never in the task store. */
const userAgents = createStore('troupe-web-agents', 'agents');

/**
 * The built-in agent definitions: the repository's `agents/*.md`, the files the CLI loads, parsed
 * at build time (see `built-in-agents.ts`), so the page loads no YAML parser at start.
 */
export function builtInAgents(): AgentDefinition[] {
  return JSON.parse(builtInJson) as AgentDefinition[];
}

/** The user's agent files, name → Markdown. */
export async function loadUserAgentFiles(): Promise<Map<string, string>> {
  return new Map((await entries<string, string>(userAgents)).map(([name, text]) => [name, text]));
}

/**
 * Parses the user's stored agents, skipping (and reporting through `onProblem`) any that no longer
 * parse. The parser loads only when there is an agent to parse.
 */
export async function loadUserAgents(onProblem: (text: string) => void): Promise<AgentDefinition[]> {
  const files = await loadUserAgentFiles();
  if (files.size === 0) return [];
  const { parseUserAgents } = await import('./parse-user-agents.js');
  return parseUserAgents(files, onProblem);
}

/** Stores a user agent under its name. */
export function saveUserAgent(name: string, text: string): Promise<void> {
  return set(name, text, userAgents);
}

/** Removes a user agent. */
export function deleteUserAgent(name: string): Promise<void> {
  return del(name, userAgents);
}
