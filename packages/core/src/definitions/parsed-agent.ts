import type { AgentDefinition } from './types.js';
import type { DefinitionWarning } from './warnings.js';

/** Options of the agent parsers. */
export interface ParseAgentOptions {
  /** The file the text came from: named in errors and warnings, kept as `definition.path`, and the
   *  fallback for a missing `name`. A `.json` path is parsed as a JSON agent. */
  path?: string;
}

/** A parsed agent: the definition, plus what was repaired or ignored on the way. */
export interface ParsedAgent {
  definition: AgentDefinition;
  warnings: DefinitionWarning[];
}
