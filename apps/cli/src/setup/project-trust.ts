import { mkdirSync, readFileSync, realpathSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import * as v from 'valibot';
import { CliError } from '../errors.js';

/**
 * Whether troupe may use what the project folder brings that can run code or widen permissions
 * (`.mcp.json`, project agents' inline `mcpServers`, allow rules in `.troupe/settings*.json`,
 * `approval` and outside `agentDirs` in `.troupe/config.json`), and why.
 */
export interface ProjectTrust {
  /** The project folder's canonical real path. */
  folder: string;
  trusted: boolean;
  /**
   * `home`: the folder is the user's home (its files are the user's own); `flag`: `--trust-project`;
   * `environment`: `TROUPE_TRUST_PROJECT=1`; `remembered`: `troupe trust` or a yes to the question.
   */
  reason: 'home' | 'flag' | 'environment' | 'remembered' | 'not-trusted';
  /** Variables a project's MCP configuration may expand (`mcpVariables` in `~/.troupe/settings.json`). */
  projectVariables: string[];
}

const TrustedFoldersSchema = v.object({
  version: v.literal(1, 'must be 1'),
  folders: v.array(
    v.object({
      path: v.pipe(v.string('must be a folder path'), v.minLength(1, 'must not be empty')),
      trustedAt: v.optional(v.string('must be a date string')),
    }),
    'must be a list of { "path": … } entries',
  ),
});
type TrustedFolders = v.InferOutput<typeof TrustedFoldersSchema>;

/** The user's file of trusted folders, written by `troupe trust` and the session's question. */
export function trustedFoldersFile(home: string): string {
  return join(home, '.troupe', 'trusted-folders.json');
}

/** A folder's canonical real path (the path itself when it does not exist). */
export function canonicalFolder(folder: string): string {
  try {
    return realpathSync(folder);
  } catch {
    return resolve(folder);
  }
}

/** Reads the trusted folders; none when the file does not exist. A broken file is a {@link CliError}. */
export function readTrustedFolders(home: string): TrustedFolders {
  const file = trustedFoldersFile(home);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { version: 1, folders: [] };
    throw new CliError(`Cannot read ${file}: ${(error as Error).message}`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new CliError(`${file} is not valid JSON (${(error as Error).message}); fix or delete it.`);
  }
  const parsed = v.safeParse(TrustedFoldersSchema, data);
  if (!parsed.success) {
    const issue = parsed.issues[0]!;
    throw new CliError(
      `${file} is invalid: field "${v.getDotPath(issue) ?? '(root)'}" ${issue.message}; fix or delete it.`,
    );
  }
  return parsed.output;
}

function writeTrustedFolders(home: string, data: TrustedFolders): void {
  const file = trustedFoldersFile(home);
  mkdirSync(dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(data, null, 2)}\n`, { mode: 0o600 });
  renameSync(temporary, file);
}

/** Remembers that the user trusts `folder` (its real path). Returns false when it already was. */
export function rememberTrust(home: string, folder: string, now: Date = new Date()): boolean {
  const path = canonicalFolder(folder);
  const data = readTrustedFolders(home);
  if (data.folders.some((entry) => entry.path === path)) return false;
  writeTrustedFolders(home, {
    version: 1,
    folders: [...data.folders, { path, trustedAt: now.toISOString() }],
  });
  return true;
}

/** Forgets `folder`. Returns false when it was not trusted. */
export function forgetTrust(home: string, folder: string): boolean {
  const path = canonicalFolder(folder);
  const data = readTrustedFolders(home);
  const folders = data.folders.filter((entry) => entry.path !== path);
  if (folders.length === data.folders.length) return false;
  writeTrustedFolders(home, { version: 1, folders });
  return true;
}

/** `mcpVariables` of the user's `~/.troupe/settings.json`: names a project's MCP config may expand. */
export function userMcpVariables(home: string): string[] {
  const file = join(home, '.troupe', 'settings.json');
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return []; // a missing file allows nothing; a broken one is reported where permissions are read
  }
  const value = (data as { mcpVariables?: unknown } | null)?.mcpVariables;
  if (value === undefined) return [];
  if (!Array.isArray(value) || !value.every((name) => typeof name === 'string' && /^\w+$/.test(name)))
    throw new CliError(`${file}: mcpVariables must be a list of variable names such as ["GITHUB_TOKEN"].`);
  return value as string[];
}

/**
 * Whether the user trusts the project folder `cwd`: it is their home, `--trust-project` was
 * passed, `TROUPE_TRUST_PROJECT=1` is set, or they trusted it before (see {@link rememberTrust}).
 */
export function projectTrust(places: {
  cwd: string;
  home: string;
  env: Readonly<Record<string, string | undefined>>;
  flag?: boolean;
}): ProjectTrust {
  const folder = canonicalFolder(places.cwd);
  const projectVariables = userMcpVariables(places.home);
  const reason: ProjectTrust['reason'] =
    folder === canonicalFolder(places.home)
      ? 'home'
      : places.flag
        ? 'flag'
        : places.env.TROUPE_TRUST_PROJECT === '1'
          ? 'environment'
          : readTrustedFolders(places.home).folders.some((entry) => entry.path === folder)
            ? 'remembered'
            : 'not-trusted';
  return { folder, trusted: reason !== 'not-trusted', reason, projectVariables };
}
