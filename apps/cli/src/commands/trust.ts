import { resolve } from 'node:path';
import { UsageError } from '../errors.js';
import { EXIT } from '../exit-codes.js';
import type { CliContext } from '../io.js';
import { loadProjectParts } from '../setup/project-parts.js';
import {
  canonicalFolder,
  forgetTrust,
  readTrustedFolders,
  rememberTrust,
  trustedFoldersFile,
  userMcpVariables,
} from '../setup/project-trust.js';
import { hasUntrustedParts, untrustedLines } from '../setup/trust-report.js';

/**
 * `troupe trust [FOLDER]` remembers that the user trusts a project folder (default: the current
 * one) and shows what that lets it do; `troupe trust revoke [FOLDER]` forgets it; `troupe trust
 * list` lists the trusted folders. Trust lives in `~/.troupe/trusted-folders.json`.
 */
export async function trustCommand(context: CliContext): Promise<number> {
  const [first, ...rest] = context.line.args;
  const json = context.line.options.json;
  const out = (text: string) => context.stdout.write(`${text}\n`);
  if (first === 'list') {
    if (rest.length) throw new UsageError('troupe trust list takes no arguments.');
    const { folders } = readTrustedFolders(context.home);
    if (json) out(JSON.stringify(folders, null, 2));
    else if (folders.length === 0) out(`No trusted folders (${trustedFoldersFile(context.home)}).`);
    else
      for (const entry of folders)
        out(`${entry.path}${entry.trustedAt ? `  (since ${entry.trustedAt})` : ''}`);
    return EXIT.ok;
  }
  const revoke = first === 'revoke';
  const folders = revoke ? rest : [first, ...rest].filter((word): word is string => word !== undefined);
  if (folders.length > 1) throw new UsageError(`Usage: troupe trust ${revoke ? 'revoke ' : ''}[FOLDER]`);
  const folder = canonicalFolder(resolve(context.cwd, folders[0] ?? '.'));
  if (revoke) {
    const forgotten = forgetTrust(context.home, folder);
    if (json) out(JSON.stringify({ folder, trusted: false, changed: forgotten }));
    else out(forgotten ? `No longer trusted: ${folder}` : `${folder} was not trusted.`);
    return EXIT.ok;
  }
  // What the folder brings, read as untrusted (nothing is started), so the user sees what they allow.
  const parts = await loadProjectParts(
    { ...context, cwd: folder },
    { trusted: false, projectVariables: userMcpVariables(context.home) },
  );
  const added = rememberTrust(context.home, folder);
  if (json) {
    out(
      JSON.stringify({
        folder,
        trusted: true,
        changed: added,
        enables: untrustedLines(parts.untrusted, folder),
      }),
    );
    return EXIT.ok;
  }
  out(added ? `Trusted: ${folder}` : `Already trusted: ${folder}`);
  if (hasUntrustedParts(parts.untrusted))
    out(['troupe will now, in this folder:', ...untrustedLines(parts.untrusted, folder)].join('\n'));
  else out('It brings no MCP servers, permission grants or approval settings today.');
  out('Undo with: troupe trust revoke' + (folder === canonicalFolder(context.cwd) ? '' : ` ${folder}`));
  return EXIT.ok;
}
