import { TroupeError } from '@troupe/core';

/**
 * An MCP configuration that cannot be used: names the source (file or `code`), the server and the
 * field, and what was expected. Never carries the value of an `env` or `headers` entry.
 */
export class McpConfigError extends TroupeError {
  readonly source: string;
  readonly server: string | undefined;
  readonly field: string | undefined;
  /** Set when a `${VAR}` was refused (see `VariablePolicy`): its name, never its value. */
  readonly variable: string | undefined;

  constructor(
    message: string,
    where: { source: string; server?: string; field?: string; variable?: string },
  ) {
    super('DEFINITION_INVALID', message, {
      details: { source: where.source, server: where.server, field: where.field, variable: where.variable },
    });
    this.source = where.source;
    this.server = where.server;
    this.field = where.field;
    this.variable = where.variable;
  }
}
