import { relative } from 'node:path';
import { createInterface } from 'node:readline/promises';
import type { IgnoredMcpServer } from '@troupe/mcp';
import type { IgnoredSetting } from '../config.js';
import type { CliIo } from '../io.js';

/** What an untrusted project folder brings that troupe left out: it could run code or widen permissions. */
export interface UntrustedParts {
  mcp: IgnoredMcpServer[];
  allow: { file: string; rules: string[] }[];
  settings: IgnoredSetting[];
  /** Hooks (settings files' and project agents') that will not run: their source and events. */
  hooks?: { source: string; events: string[] }[];
  /** Project skills (their files) not loaded. */
  skills?: string[];
  /** Project agents whose project or local memory is not used: `name (scope)`. */
  memory?: string[];
}

/** True when the project brings anything that waits for the user's trust. */
export function hasUntrustedParts(parts: UntrustedParts): boolean {
  return (
    parts.mcp.length > 0 ||
    parts.allow.length > 0 ||
    parts.settings.length > 0 ||
    (parts.hooks?.length ?? 0) > 0 ||
    (parts.skills?.length ?? 0) > 0 ||
    (parts.memory?.length ?? 0) > 0
  );
}

/** One line per thing the project would run or grant, naming the file it comes from. */
export function untrustedLines(parts: UntrustedParts, cwd: string): string[] {
  const shown = (file: string) => {
    const inside = relative(cwd, file);
    return inside && !inside.startsWith('..') ? inside : file;
  };
  const source = (text: string) => (text.startsWith('agent ') ? text : shown(text));
  return [
    ...parts.mcp.map(
      (server) => `  - run MCP server "${server.name}": ${server.runs}  (from ${source(server.source)})`,
    ),
    ...parts.allow.map(
      (entry) => `  - allow without asking: ${entry.rules.join(', ')}  (from ${shown(entry.file)})`,
    ),
    ...parts.settings.map((setting) =>
      setting.setting === 'approval'
        ? `  - approve every write and execute tool (approval: ${setting.value})  (from ${shown(setting.file)})`
        : setting.setting === 'bashPassEnv'
          ? `  - pass $${setting.value} to every bash command (bashPassEnv)  (from ${shown(setting.file)})`
          : `  - read agents from ${setting.value}, outside the project (agentDirs)  (from ${shown(setting.file)})`,
    ),
    ...(parts.hooks ?? []).map(
      (entry) => `  - run hook commands: ${entry.events.join(', ')}  (from ${source(entry.source)})`,
    ),
    ...(parts.skills?.length
      ? [`  - give agents the project's skills: ${parts.skills.map(shown).join(', ')}`]
      : []),
    ...(parts.memory?.length
      ? [`  - give agents their project memory and let them write it: ${parts.memory.join(', ')}`]
      : []),
  ];
}

/** How to trust a folder, for messages. */
export const HOW_TO_TRUST =
  'To use them, trust the folder: `troupe trust` (remembered), `--trust-project` (this run only) or TROUPE_TRUST_PROJECT=1 (CI).';

/** What a non-interactive command prints about what it left out, and why. */
export function ignoredNotice(parts: UntrustedParts, folder: string): string {
  return [
    `troupe ignored what this folder brings, because you have not trusted it (${folder}):`,
    ...untrustedLines(parts, folder),
    HOW_TO_TRUST,
  ].join('\n');
}

/** The question an interactive session asks once for an untrusted folder that brings something. */
export function trustQuestion(parts: UntrustedParts, folder: string): string {
  return [
    `This folder is not trusted yet: ${folder}`,
    'Its files ask troupe to:',
    ...untrustedLines(parts, folder),
    'Only trust a folder whose files you have read or whose authors you trust: MCP servers and hooks run as you.',
    'Trust this folder (remembered in ~/.troupe/trusted-folders.json)? [y/N] ',
  ].join('\n');
}

/** True only for an explicit yes; anything else (an empty line, end of input) keeps the folder untrusted. */
export function parseTrustAnswer(answer: string | undefined): boolean {
  return /^\s*y(es)?\s*$/i.test(answer ?? '');
}

/** Asks {@link trustQuestion} on the terminal; resolves false when input ends unanswered. */
export async function askToTrust(
  io: Pick<CliIo, 'stdin' | 'stdout'>,
  parts: UntrustedParts,
  folder: string,
): Promise<boolean> {
  const lines = createInterface({
    input: io.stdin,
    output: io.stdout as NodeJS.WritableStream,
    terminal: true,
  });
  const closed = new Promise<undefined>((resolve) => lines.once('close', () => resolve(undefined)));
  try {
    return parseTrustAnswer(await Promise.race([lines.question(trustQuestion(parts, folder)), closed]));
  } finally {
    lines.close();
  }
}
