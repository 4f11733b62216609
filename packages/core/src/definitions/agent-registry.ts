import { DefinitionError } from '../errors.js';
import { SEED_AGENT_ALIASES } from './agent-aliases.js';
import { normaliseAgentName } from './agent-name.js';
import type { AgentDefinition, AgentSource } from './types.js';
import { validateAgentDefinition } from './validate-agent-definition.js';
import type { DefinitionWarning } from './warnings.js';

/** Sources from highest to lowest precedence. */
const AGENT_SOURCE_PRECEDENCE: readonly AgentSource[] = ['code', 'project', 'user', 'builtin'];

/** A file or definition that could not be loaded. Loading the others went on. */
export interface AgentProblem {
  message: string;
  file?: string;
  line?: number;
  field?: string;
  source?: AgentSource;
  error?: unknown;
}

/** A definition hidden by another of the same name from a higher (or the same, earlier) source. */
export interface ShadowedAgent {
  name: string;
  /** The definition `get(name)` returns. */
  kept: AgentDefinition;
  /** The one hidden by it. */
  shadowed: AgentDefinition;
  message: string;
}

/** The agents a runtime can run, by name, with what was shadowed and what failed to load. */
export interface AgentRegistry {
  /**
   * Adds a definition from `source` (default: its own `source`, else `code`). Throws
   * {@link DefinitionError} when it is invalid. With a name already present, the higher source
   * wins (the earlier one on a tie); the other is listed by `shadowed()`.
   */
  add(definition: AgentDefinition, source?: AgentSource): AgentDefinition;
  /** Records a definition that could not be loaded (a file's error). */
  addProblem(problem: AgentProblem | DefinitionError, source?: AgentSource): void;
  /** Records non-fatal warnings (from parsing) so hosts can show them. */
  addWarnings(warnings: readonly DefinitionWarning[]): void;
  /** Makes `alias` (any case) resolve to `target`. A real definition named `alias` wins over it. */
  addAlias(alias: string, target: string): void;
  /** The definition for a name or alias, matched case-insensitively (`Explore`, `code_reviewer`). */
  get(name: string): AgentDefinition | undefined;
  /** Like `get`, but throws {@link DefinitionError} (DEFINITION_NOT_FOUND) listing the names. */
  require(name: string): AgentDefinition;
  /** Whether `get(name)` finds a definition (by name or alias, any case). */
  has(name: string): boolean;
  /** Every winning definition, sorted by name. */
  list(): AgentDefinition[];
  /** The registered names (no aliases), sorted: the `subagent_type` enum. */
  names(): string[];
  /** Aliases whose target exists and which no real name hides, as alias → name. */
  aliases(): Record<string, string>;
  /** Definitions hidden by one of the same name from a higher source (project over user over built-in). */
  shadowed(): ShadowedAgent[];
  /** Definitions that could not be loaded, as `addProblem` recorded them. */
  problems(): AgentProblem[];
  /** The non-fatal warnings `addWarnings` recorded, for a host to show. */
  warnings(): DefinitionWarning[];
}

/** Options of {@link createAgentRegistry}. */
export interface AgentRegistryOptions {
  /**
   * Extra aliases (alias → name), added to the built-in ones (`Explore` → `explore`, `Plan` →
   * `plan`, `code` → `general-purpose`, …: the names other tools' agent files use).
   */
  aliases?: Readonly<Record<string, string>>;
  /** Definitions to add at once, each from its own `source` (default `code`). */
  definitions?: readonly AgentDefinition[];
}

interface Entry {
  definition: AgentDefinition;
  rank: number;
  order: number;
}

/** Creates an empty registry with the seed aliases (`Explore`, `code`, `file-search`, ...). */
export function createAgentRegistry(options: AgentRegistryOptions = {}): AgentRegistry {
  const entries = new Map<string, Entry[]>();
  const aliasMap = new Map<string, string>();
  const problemList: AgentProblem[] = [];
  const warningList: DefinitionWarning[] = [];
  let order = 0;

  const winner = (key: string): Entry | undefined => entries.get(key)?.[0];
  const lookup = (name: string): Entry | undefined => {
    const key = name.trim().toLowerCase();
    const normalised = normaliseAgentName(name);
    for (const candidate of [key, normalised]) {
      const found = winner(candidate) ?? winner(aliasMap.get(candidate) ?? '');
      if (found) return found;
    }
    return undefined;
  };
  const describeOrigin = (definition: AgentDefinition) =>
    `${definition.source}${definition.path === undefined ? '' : ` (${definition.path})`}`;

  const registry: AgentRegistry = {
    add(definition, source) {
      const valid = validateAgentDefinition(definition);
      const from = source ?? valid.source ?? 'code';
      const stored = Object.freeze({ ...valid, source: from });
      const key = stored.name.toLowerCase();
      const list = entries.get(key) ?? [];
      list.push({ definition: stored, rank: AGENT_SOURCE_PRECEDENCE.indexOf(from), order: order++ });
      list.sort((a, b) => a.rank - b.rank || a.order - b.order);
      entries.set(key, list);
      return stored;
    },
    addProblem(problem, source) {
      const record: AgentProblem =
        problem instanceof DefinitionError ? { message: problem.message, error: problem } : { ...problem };
      if (problem instanceof DefinitionError) {
        if (problem.file !== undefined) record.file = problem.file;
        if (problem.line !== undefined) record.line = problem.line;
        if (problem.field !== undefined) record.field = problem.field;
      }
      if (source !== undefined) record.source = source;
      problemList.push(record);
    },
    addWarnings(warnings) {
      warningList.push(...warnings);
    },
    addAlias(alias, target) {
      const to = target.trim().toLowerCase();
      for (const from of [alias.trim().toLowerCase(), normaliseAgentName(alias)]) {
        if (from !== '' && from !== to) aliasMap.set(from, to);
      }
    },
    get: (name) => lookup(name)?.definition,
    require(name) {
      const found = lookup(name);
      if (found) return found.definition;
      throw new DefinitionError(
        `No agent named ${JSON.stringify(name)}. Available: ${registry.names().join(', ') || '(none)'}.`,
        { code: 'DEFINITION_NOT_FOUND', field: 'subagent_type' },
      );
    },
    has: (name) => lookup(name) !== undefined,
    list: () =>
      [...entries.values()]
        .map((list) => list[0]!.definition)
        .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
    names: () => registry.list().map((definition) => definition.name),
    aliases() {
      const out: Record<string, string> = {};
      for (const [alias, target] of aliasMap) {
        if (!entries.has(alias) && entries.has(target)) out[alias] = target;
      }
      return out;
    },
    shadowed() {
      const out: ShadowedAgent[] = [];
      for (const list of entries.values()) {
        const kept = list[0]!.definition;
        for (const entry of list.slice(1)) {
          const shadowed = entry.definition;
          out.push({
            name: kept.name,
            kept,
            shadowed,
            message: `agent '${kept.name}' from ${describeOrigin(shadowed)} is shadowed by the one from ${describeOrigin(kept)}.`,
          });
        }
      }
      return out;
    },
    problems: () => [...problemList],
    warnings: () => [...warningList],
  };

  for (const [alias, target] of Object.entries({ ...SEED_AGENT_ALIASES, ...options.aliases })) {
    registry.addAlias(alias, target);
  }
  for (const definition of options.definitions ?? []) registry.add(definition);
  return registry;
}
