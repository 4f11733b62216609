import * as v from 'valibot';
import { expandVariables, type MissingVariable, refusedVariable } from './expand-variables.js';
import { McpConfigError } from './mcp-config-error.js';
import type { McpServerConfig, McpServerEntry } from './server-config.js';
import type { VariablePolicy } from './variable-policy.js';

const access = v.picklist(['read', 'write', 'execute'], "'read', 'write' or 'execute'");
const MS = 'a whole number of milliseconds of at least 1';
const milliseconds = v.pipe(v.number(MS), v.integer(MS), v.minValue(1, MS));
const stringMap = v.record(v.string(), v.string('a string'), 'an object of string values');

const common = {
  access: v.optional(access),
  toolAccess: v.optional(
    v.record(v.string(), access, "an object of tool name → 'read' | 'write' | 'execute'"),
  ),
  timeoutMs: v.optional(milliseconds),
  startTimeoutMs: v.optional(milliseconds),
};

const stdioSchema = v.looseObject({
  type: v.optional(v.literal('stdio')),
  command: v.pipe(v.string('a command to run'), v.nonEmpty('a command to run')),
  args: v.optional(v.array(v.string(), 'a list of strings')),
  env: v.optional(stringMap),
  cwd: v.optional(v.string('a directory')),
  ...common,
});

const httpSchema = v.looseObject({
  type: v.picklist(['http', 'streamable-http', 'streamableHttp'], "'http'"),
  url: v.pipe(v.string('a URL'), v.url('an http(s) URL')),
  headers: v.optional(stringMap),
  ...common,
});

/** What {@link parseMcpConfig} gives. */
export interface ParsedMcpConfig {
  servers: McpServerEntry[];
  /**
   * Problems that do not stop the other servers from being used: an unset `${VAR}`, or a server
   * left out because it reads a variable its {@link VariablePolicy} refuses.
   */
  warnings: string[];
}

/** Options of {@link parseMcpConfig}. */
export interface ParseMcpConfigOptions {
  /** Where the configuration came from, for messages: a file path, `code`, `agent x`. */
  source?: string;
  /** Variables for `${VAR}` expansion. Default: none (pass `process.env` in Node). */
  environment?: Readonly<Record<string, string | undefined>>;
  /**
   * Which variables `${VAR}` may read. Default `{ allow: 'all' }` (the host's own configuration);
   * pass the user's allow-list for a project's. A secret-looking variable is never expanded in
   * `command`, `args` or `cwd`, whatever the policy.
   */
  variables?: VariablePolicy;
}

/** Options of {@link parseServerConfig}. */
export interface ParseServerConfigOptions {
  /** Collects the unset `${VAR}`s. */
  missing?: MissingVariable[];
  /** See {@link ParseMcpConfigOptions.variables}. */
  variables?: VariablePolicy;
}

/**
 * Parses MCP server configuration in Claude Code's `.mcp.json` shape: `{ "mcpServers": { name:
 * { command, args, env } | { type: "http", url, headers } } }` (or the inner object alone), with
 * `${VAR}` / `${VAR:-default}` expanded in command, args, env, cwd, url and headers. troupe adds
 * `access`, `toolAccess`, `timeoutMs` and `startTimeoutMs` per server. A server that reads a
 * `${VAR}` the policy refuses is left out, with a warning naming server, field and variable. Throws
 * {@link McpConfigError} naming the source, server and field of the first unusable value.
 */
export function parseMcpConfig(value: unknown, options: ParseMcpConfigOptions = {}): ParsedMcpConfig {
  const source = options.source ?? 'code';
  const environment = options.environment ?? {};
  if (!isObject(value))
    throw new McpConfigError(
      `${source}: expected an object like { "mcpServers": { "name": { "command": "..." } } }.`,
      {
        source,
      },
    );
  const servers = 'mcpServers' in value ? value.mcpServers : value;
  if (!isObject(servers))
    throw new McpConfigError(`${source}: "mcpServers" must be an object of server name → configuration.`, {
      source,
      field: 'mcpServers',
    });
  const entries: McpServerEntry[] = [];
  const missing: MissingVariable[] = [];
  const refused: string[] = [];
  for (const [name, raw] of Object.entries(servers)) {
    try {
      const config = parseServerConfig(name, raw, source, environment, {
        missing,
        ...(options.variables ? { variables: options.variables } : {}),
      });
      entries.push({ name, source, config });
    } catch (error) {
      if (!(error instanceof McpConfigError) || error.variable === undefined) throw error;
      refused.push(error.message);
    }
  }
  const warnings = missing.map(
    (variable) =>
      `${source}: MCP server "${variable.field.split('.')[0]}" uses \${${variable.name}} in ${variable.field}, but ${variable.name} is not set; it expands to an empty string.`,
  );
  return { servers: entries, warnings: [...refused, ...warnings] };
}

/**
 * Parses one server's entry (see {@link parseMcpConfig}). Throws {@link McpConfigError} for an
 * unusable value, and one with `variable` set for a `${VAR}` the policy refuses.
 */
export function parseServerConfig(
  name: string,
  raw: unknown,
  source: string,
  environment: Readonly<Record<string, string | undefined>>,
  options: ParseServerConfigOptions = {},
): McpServerConfig {
  const missing = options.missing ?? [];
  const policy = options.variables ?? { allow: 'all' };
  const where = `${source}: MCP server "${name}"`;
  if (!name.trim())
    throw new McpConfigError(`${source}: an MCP server has an empty name.`, { source, server: name });
  if (!isObject(raw))
    throw new McpConfigError(
      `${where} must be an object with "command" (stdio) or "type": "http" and "url".`,
      {
        source,
        server: name,
      },
    );
  const type = raw.type;
  if (type === 'sse')
    throw new McpConfigError(
      `${where}: type "sse" (the deprecated HTTP+SSE transport) is not supported; use "type": "http" (Streamable HTTP).`,
      { source, server: name, field: 'type' },
    );
  if (
    type !== undefined &&
    type !== 'stdio' &&
    !['http', 'streamable-http', 'streamableHttp'].includes(String(type))
  )
    throw new McpConfigError(`${where}: "type" must be "stdio" or "http", got ${JSON.stringify(type)}.`, {
      source,
      server: name,
      field: 'type',
    });
  const isHttp = type !== undefined && type !== 'stdio';
  const parsed = v.safeParse(isHttp ? httpSchema : stdioSchema, raw);
  if (!parsed.success) {
    const issue = parsed.issues[0]!;
    const field = v.getDotPath(issue) ?? (isHttp ? 'url' : 'command');
    const secret = /^(env|headers)\./.test(field);
    const message =
      issue.input === undefined
        ? `${where}: "${field}" is required.`
        : secret
          ? `${where}: "${field}" must be a string.`
          : `${where}: "${field}" must be ${issue.message}, got ${JSON.stringify(issue.input)?.slice(0, 60)}.`;
    throw new McpConfigError(message, { source, server: name, field });
  }
  const config = parsed.output;
  const expand = (text: string, field: string) => {
    const refused = refusedVariable(text, field, policy, environment);
    if (refused)
      throw new McpConfigError(
        refused.reason === 'secret-on-command-line'
          ? `${where} is not started: it puts \${${refused.name}} in "${field}", and a secret on a command line is visible to every local user (ps). Pass it in "env" instead.`
          : `${where} is not started: it reads \${${refused.name}} in "${field}", which the user's settings do not allow for this configuration.${policy.howToAllow ? ` ${policy.howToAllow.replaceAll('{name}', refused.name)}` : ''}`,
        { source, server: name, field, variable: refused.name },
      );
    return expandVariables(text, environment, `${name}.${field}`, missing);
  };
  const expandMap = (map: Record<string, string> | undefined, field: string) =>
    Object.fromEntries(
      Object.entries(map ?? {}).map(([key, text]) => [key, expand(text, `${field}.${key}`)]),
    );
  const overrides = {
    ...(config.access ? { access: config.access } : {}),
    ...(config.toolAccess ? { toolAccess: config.toolAccess } : {}),
    ...(config.timeoutMs ? { timeoutMs: config.timeoutMs } : {}),
    ...(config.startTimeoutMs ? { startTimeoutMs: config.startTimeoutMs } : {}),
  };
  if (isHttp) {
    const http = config as v.InferOutput<typeof httpSchema>;
    return {
      type: 'http',
      url: expand(http.url, 'url'),
      headers: expandMap(http.headers, 'headers'),
      ...overrides,
    };
  }
  const stdio = config as v.InferOutput<typeof stdioSchema>;
  return {
    type: 'stdio',
    command: expand(stdio.command, 'command'),
    args: (stdio.args ?? []).map((arg, index) => expand(arg, `args.${index}`)),
    env: expandMap(stdio.env, 'env'),
    ...(stdio.cwd ? { cwd: expand(stdio.cwd, 'cwd') } : {}),
    ...overrides,
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
