import { parseAgentFile } from './parse-agent-file.js';

/**
 * Parses an agent file of either format (the same as {@link parseAgentFile}, which now reads JSON
 * agents too); kept for the loaders that import it by this name.
 */
export const parseAgentSource = parseAgentFile;
