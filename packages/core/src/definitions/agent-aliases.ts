/**
 * Names the seed documents use for the built-in agents, mapped to troupe's names. A definition
 * whose real name equals an alias always wins over the alias.
 */
export const SEED_AGENT_ALIASES: Readonly<Record<string, string>> = Object.freeze({
  Explore: 'explore',
  Plan: 'plan',
  code: 'general-purpose',
  'file-search': 'explore',
  'code-analysis': 'codebase-investigator',
  'codebase-explorer': 'explore',
  codebase_investigator: 'codebase-investigator',
});
