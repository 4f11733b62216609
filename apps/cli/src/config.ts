import { realpathSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { DEFAULT_PRICES, type ModelPrice, type PriceTable } from '@troupe/core';
import * as v from 'valibot';
import { CliError } from './errors.js';

const positiveInteger = v.pipe(
  v.number('must be a number'),
  v.integer('must be a whole number'),
  v.minValue(1, 'must be at least 1'),
);
const modelId = v.pipe(v.string('must be a string'), v.trim(), v.minLength(1, 'must not be empty'));

const LimitsSchema = v.strictObject(
  {
    maxConcurrent: v.optional(positiveInteger),
    maxTurns: v.optional(positiveInteger),
    tokenBudget: v.optional(positiveInteger),
    timeoutMs: v.optional(positiveInteger),
    maxDepth: v.optional(positiveInteger),
    mainMaxTurns: v.optional(positiveInteger),
  },
  (issue) =>
    issue.expected === 'never'
      ? 'is not a known limit (known: maxConcurrent, maxTurns, tokenBudget, timeoutMs, maxDepth, mainMaxTurns)'
      : 'must be an object',
);

const dollarsPerMillion = v.pipe(
  v.number('must be a price in US dollars per million tokens'),
  v.minValue(0, 'must not be negative'),
  v.finite('must be a finite number'),
);

const PriceSchema = v.strictObject(
  {
    input: dollarsPerMillion,
    output: dollarsPerMillion,
    cacheRead: v.optional(dollarsPerMillion),
    cacheWrite: v.optional(dollarsPerMillion),
    cacheWrite1h: v.optional(dollarsPerMillion),
  },
  (issue) =>
    issue.expected === 'never'
      ? 'is not a known price (known: input, output, cacheRead, cacheWrite, cacheWrite1h)'
      : 'must be an object such as { "input": 3, "output": 15 }',
);

const PricesSchema = v.record(
  v.pipe(v.string(), v.trim(), v.minLength(1, 'must name a model (a full id or a part of one)')),
  PriceSchema,
  'must be an object of prices by model',
);

const ConfigSchema = v.strictObject(
  {
    model: v.optional(modelId),
    smallModel: v.optional(modelId),
    planModel: v.optional(modelId),
    thinking: v.optional(
      v.pipe(
        v.number('must be a number of tokens'),
        v.integer('must be a whole number of tokens'),
        v.minValue(1024, 'must be at least 1024 tokens'),
      ),
    ),
    approval: v.optional(v.picklist(['ask', 'auto', 'deny'], 'must be "ask", "auto" or "deny"')),
    limits: v.optional(LimitsSchema),
    prices: v.optional(PricesSchema),
    bashPassEnv: v.optional(
      v.array(
        v.pipe(
          v.string('must be a variable name'),
          v.regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be a variable name'),
        ),
        'must be a list of variable names',
      ),
    ),
    agentDirs: v.optional(
      v.array(
        v.pipe(v.string('must be a folder path'), v.trim(), v.minLength(1, 'must not be empty')),
        'must be a list of folder paths',
      ),
    ),
  },
  (issue) =>
    issue.expected === 'never'
      ? 'is not a known setting (known: model, smallModel, planModel, thinking, approval, limits, prices, agentDirs, bashPassEnv)'
      : 'must be a JSON object',
);

/** Settings from the config files. */
export type CliConfig = v.InferOutput<typeof ConfigSchema>;

/** A project setting left out because the user does not trust the project folder. */
export interface IgnoredSetting {
  file: string;
  /**
   * `approval` (only `auto` widens), `agentDirs` (a folder outside the project) or `bashPassEnv`
   * (a variable of this process handed to every command).
   */
  setting: 'approval' | 'agentDirs' | 'bashPassEnv';
  value: string;
}

/** The merged settings and the files they came from (user first, then project). */
export interface LoadedConfig {
  config: CliConfig;
  files: string[];
  /** Project settings that widen what troupe does, left out of `config` (untrusted project). */
  ignored: IgnoredSetting[];
}

/** The config files read, lowest precedence first: `~/.troupe/config.json`, then `<cwd>/.troupe/config.json`. */
function configPaths(options: { home: string; cwd: string }): string[] {
  const user = join(options.home, '.troupe', 'config.json');
  const project = join(options.cwd, '.troupe', 'config.json');
  return user === project ? [user] : [user, project];
}

/**
 * Reads and checks the config files; the project file wins field by field (and limit by limit).
 * Unless `trustProject`, the project file cannot widen what troupe does: its `approval: "auto"`,
 * its `agentDirs` outside the project folder and its `bashPassEnv` are left out and listed in `ignored`. A missing
 * file is skipped. Throws {@link CliError} naming the file and the field for a file that cannot be
 * read, is not JSON, or has an unknown or invalid setting.
 */
export async function loadConfig(options: {
  home: string;
  cwd: string;
  trustProject?: boolean;
}): Promise<LoadedConfig> {
  const config: CliConfig = {};
  const files: string[] = [];
  const ignored: IgnoredSetting[] = [];
  const paths = configPaths(options);
  for (const file of paths) {
    let parsed = await readConfigFile(file);
    if (!parsed) continue;
    files.push(file);
    if (file !== paths[0] && !options.trustProject) parsed = withoutWidening(parsed, file, options, ignored);
    const { limits, prices, bashPassEnv, ...rest } = parsed;
    Object.assign(config, rest);
    if (limits) config.limits = { ...config.limits, ...limits };
    // Prices are only shown (estimates), so an untrusted project may set them too; model by model.
    if (prices) config.prices = { ...config.prices, ...prices };
    // The lists add up: the project names more variables, it cannot take the user's away.
    if (bashPassEnv) config.bashPassEnv = [...new Set([...(config.bashPassEnv ?? []), ...bashPassEnv])];
  }
  return { config, files, ignored };
}

/** An untrusted project file's settings without those that widen what troupe does. */
function withoutWidening(
  parsed: CliConfig,
  file: string,
  places: { home: string; cwd: string },
  ignored: IgnoredSetting[],
): CliConfig {
  const { approval, agentDirs, bashPassEnv, ...rest } = parsed;
  const kept: CliConfig = rest;
  // Handing a variable to every command could hand a secret to the model: the user's call.
  for (const name of bashPassEnv ?? []) ignored.push({ file, setting: 'bashPassEnv', value: name });
  if (approval === 'auto') ignored.push({ file, setting: 'approval', value: approval });
  else if (approval) kept.approval = approval;
  if (agentDirs) {
    const inside = agentDirs.filter((dir) => {
      if (isInsideProject(dir, places)) return true;
      ignored.push({ file, setting: 'agentDirs', value: dir });
      return false;
    });
    if (inside.length) kept.agentDirs = inside;
  }
  return kept;
}

/** True when an `agentDirs` entry (followed through links) stays inside the project folder. */
function isInsideProject(dir: string, places: { home: string; cwd: string }): boolean {
  if (dir === '~' || dir.startsWith('~/')) return false;
  const real = (path: string) => {
    try {
      return realpathSync(path);
    } catch {
      return resolve(path);
    }
  };
  const inside = relative(real(places.cwd), real(resolve(places.cwd, dir)));
  return inside.split(sep)[0] !== '..' && !isAbsolute(inside);
}

/** Reads one config file; undefined when it does not exist. */
async function readConfigFile(file: string): Promise<CliConfig | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    throw new CliError(`Cannot read the config file ${file}: ${(error as Error).message}`, undefined, {
      cause: error,
    });
  }
  let data: unknown;
  try {
    data = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    throw new CliError(`The config file ${file} is not valid JSON: ${(error as Error).message}`, undefined, {
      cause: error,
    });
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data))
    throw new CliError(`The config file ${file} is invalid: it must hold a JSON object.`);
  if (Array.isArray((data as { limits?: unknown }).limits))
    throw new CliError(`The config file ${file} is invalid: field "limits" must be an object.`);
  const result = v.safeParse(ConfigSchema, data);
  if (!result.success) {
    const issue = result.issues[0]!;
    throw new CliError(
      `The config file ${file} is invalid: field "${v.getDotPath(issue)}" ${issue.message}.`,
    );
  }
  return result.output;
}

/**
 * The price table of the CLI's estimates (`/cost`, `troupe tasks show`, workers' runtimes): the
 * list prices, with the config's `prices` over them model by model (a key is a model id or a part
 * of one; the longest key an id contains prices it).
 */
export function configPrices(config: CliConfig): PriceTable {
  if (!config.prices) return DEFAULT_PRICES;
  const table: Record<string, ModelPrice> = { ...DEFAULT_PRICES };
  for (const [key, price] of Object.entries(config.prices))
    Object.defineProperty(table, key, { value: price, enumerable: true, writable: true, configurable: true });
  return table;
}

/** The config's limits without unset entries, as `createRuntime` takes them. */
export function configLimits(
  config: CliConfig,
): Partial<Record<keyof NonNullable<CliConfig['limits']>, number>> {
  const out: Partial<Record<keyof NonNullable<CliConfig['limits']>, number>> = {};
  for (const [key, value] of Object.entries(config.limits ?? {})) {
    if (typeof value === 'number') out[key as keyof typeof out] = value;
  }
  return out;
}
