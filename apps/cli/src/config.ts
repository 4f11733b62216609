import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
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
    agentDirs: v.optional(
      v.array(
        v.pipe(v.string('must be a folder path'), v.trim(), v.minLength(1, 'must not be empty')),
        'must be a list of folder paths',
      ),
    ),
  },
  (issue) =>
    issue.expected === 'never'
      ? 'is not a known setting (known: model, smallModel, planModel, thinking, approval, limits, agentDirs)'
      : 'must be a JSON object',
);

/** Settings from the config files. */
export type CliConfig = v.InferOutput<typeof ConfigSchema>;

/** The merged settings and the files they came from (user first, then project). */
export interface LoadedConfig {
  config: CliConfig;
  files: string[];
}

/** The config files read, lowest precedence first: `~/.troupe/config.json`, then `<cwd>/.troupe/config.json`. */
function configPaths(options: { home: string; cwd: string }): string[] {
  const user = join(options.home, '.troupe', 'config.json');
  const project = join(options.cwd, '.troupe', 'config.json');
  return user === project ? [user] : [user, project];
}

/**
 * Reads and checks the config files; the project file wins field by field (and limit by limit).
 * A missing file is skipped. Throws {@link CliError} naming the file and the field for a file that
 * cannot be read, is not JSON, or has an unknown or invalid setting.
 */
export async function loadConfig(options: { home: string; cwd: string }): Promise<LoadedConfig> {
  const config: CliConfig = {};
  const files: string[] = [];
  for (const file of configPaths(options)) {
    const parsed = await readConfigFile(file);
    if (!parsed) continue;
    files.push(file);
    const { limits, ...rest } = parsed;
    Object.assign(config, rest);
    if (limits) config.limits = { ...config.limits, ...limits };
  }
  return { config, files };
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
