import { readFileSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, relative, resolve, sep } from 'node:path';
import { createPermissionPolicy, type PermissionPolicy, parsePermissionRule } from '@troupe/core';
import { CliError } from '../errors.js';

/** The settings files whose `permissions` are read, lowest precedence first. */
function settingsPaths(places: { cwd: string; home: string }): string[] {
  const paths = [
    join(places.home, '.troupe', 'settings.json'),
    join(places.cwd, '.troupe', 'settings.json'),
    join(places.cwd, '.troupe', 'settings.local.json'),
  ];
  return [...new Set(paths)];
}

/** Permission rules from the settings files, and the files they came from. */
export interface PermissionSettings {
  allow: string[];
  deny: string[];
  files: string[];
  /** Allow rules of an untrusted project's files, left out (its deny rules are kept: they only narrow). */
  ignoredAllow: { file: string; rules: string[] }[];
}

function ruleList(value: unknown, file: string, field: string): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value))
    throw new CliError(`${file}: ${field} must be a list of rules such as "Bash(npm test:*)".`);
  return value.map((rule, index) => {
    if (typeof rule !== 'string')
      throw new CliError(`${file}: ${field}[${index}] must be a string rule such as "Edit(src/**)".`);
    try {
      parsePermissionRule(rule);
    } catch (error) {
      throw new CliError(`${file}: ${field}[${index}]: ${(error as Error).message}`);
    }
    return rule;
  });
}

/**
 * Reads `permissions.allow` and `permissions.deny` (Claude Code's rule syntax) from
 * `~/.troupe/settings.json`, `.troupe/settings.json` and `.troupe/settings.local.json`; the lists
 * add up. Unless `trustProject`, the project files' allow rules are left out (in `ignoredAllow`):
 * a repository cannot grant itself permissions; its deny rules always count. Other keys are left
 * alone (the files may hold more settings). A missing file is skipped; a file that is not JSON,
 * or a rule that cannot be parsed, is a {@link CliError} naming the file and the field.
 */
export async function loadPermissionSettings(places: {
  cwd: string;
  home: string;
  trustProject?: boolean;
}): Promise<PermissionSettings> {
  const settings: PermissionSettings = { allow: [], deny: [], files: [], ignoredAllow: [] };
  const userFile = join(places.home, '.troupe', 'settings.json');
  for (const file of settingsPaths(places)) {
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw new CliError(`${file}: cannot read it (${(error as Error).message}).`);
    }
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch (error) {
      throw new CliError(`${file}: not valid JSON (${(error as Error).message}).`);
    }
    if (data === null || typeof data !== 'object' || Array.isArray(data))
      throw new CliError(`${file}: must be a JSON object.`);
    const permissions = (data as { permissions?: unknown }).permissions;
    if (permissions === undefined) continue;
    if (permissions === null || typeof permissions !== 'object' || Array.isArray(permissions))
      throw new CliError(`${file}: permissions must be an object with "allow" and "deny" lists.`);
    const { allow, deny } = permissions as { allow?: unknown; deny?: unknown };
    const allowRules = ruleList(allow, file, 'permissions.allow');
    if (file === userFile || places.trustProject) settings.allow.push(...allowRules);
    else if (allowRules.length) settings.ignoredAllow.push({ file, rules: allowRules });
    settings.deny.push(...ruleList(deny, file, 'permissions.deny'));
    settings.files.push(file);
  }
  return settings;
}

/**
 * The session's permission policy: the settings' rules, then the approval mode for calls no rule
 * covers (`ask` the user, approve with `auto`, refuse with `deny`). The runtime decides with it, so
 * the rules hold for every task, whether or not anyone is asked.
 */
export function permissionPolicyFor(
  settings: PermissionSettings,
  mode: 'ask' | 'auto' | 'deny',
  root: string,
): PermissionPolicy {
  return createPermissionPolicy({
    allow: settings.allow,
    deny: settings.deny,
    otherwise: mode === 'auto' ? 'approve' : mode,
    root,
  });
}

/**
 * What to give `createRuntime({ approval })`: the policy's function, or, with no rules and a mode
 * that never asks, the plain mode (its denials then say that the approval policy denies them).
 */
export function runtimeApproval(
  policy: PermissionPolicy,
  mode: 'ask' | 'auto' | 'deny',
): PermissionPolicy['decide'] | 'auto' | 'deny' {
  const { allow, deny } = policy.rules();
  return mode !== 'ask' && allow.length === 0 && deny.length === 0 ? mode : policy.decide;
}

/** Reads a workspace file as it is now, for an approval's diff; undefined when missing, large or outside. */
export function workspaceFileReader(root: string): (path: string) => string | undefined {
  return (path) => {
    const full = resolve(root, path);
    const inside = relative(root, full);
    if (inside.startsWith(`..${sep}`) || inside === '..' || resolve(root, inside) !== full) return undefined;
    try {
      if (statSync(full).size > 1_000_000) return undefined;
      return readFileSync(full, 'utf8');
    } catch {
      return undefined;
    }
  };
}
